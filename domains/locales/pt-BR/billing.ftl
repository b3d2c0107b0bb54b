billing-checkout-welcome-to-s-cio-pro = 🎉 Bem-vindo ao Sócio Pro{ $name }! A partir de agora sou o seu consultor aqui no WhatsApp. Vamos começar o seu plano de negócios? Responda *Oi*.
billing-manual-refunds-your-pro-subscription-was-cancelled = Sua assinatura Pro foi cancelada pela garantia de 7 dias. Como o pagamento foi por boleto, devolvemos os { $amount } por Pix: me envie aqui a sua chave Pix (CPF, CNPJ, e-mail, celular ou chave aleatória). O reembolso é feito em até { $days } dias úteis depois que recebermos a chave.
billing-manual-refunds-i-got-your-pix-key = Recebi sua chave Pix ({ $key }). O reembolso de { $amount } será feito em até { $days } dias úteis; eu te aviso aqui quando for pago. Por segurança, a chave não pode mais ser trocada por aqui: se estiver errada, escreva "atendente" e nossa equipe resolve com você.
billing-manual-refunds-refund-paid-we-sent-by = ✅ Reembolso pago: enviamos { $amount } por Pix para a chave { $key }. Obrigado por ter experimentado o Sócio.
billing-plans-free = Gratuito
billing-plans-forever = para sempre
billing-plans-to-get-to-know-s = Para conhecer o Sócio e começar a organizar a sua ideia.
billing-plans-start-for-free = Começar grátis
billing-plans-month = /mês
billing-plans-your-ai-business-consultant-on = Seu consultor de negócios com IA no WhatsApp, 24 horas por dia, 7 dias por semana.
billing-plans-get-pro = Assinar o Pro
billing-renewals-we-could-not-renew-your = ⚠️ Não conseguimos renovar o seu Sócio Pro: o pagamento não foi aprovado. Atualize a forma de pagamento aqui: { $fix_url }
billing-plans-free-template = Modelo básico de plano de negócios
billing-plans-free-dashboard = Painel com o progresso do seu plano
billing-plans-free-email-support = Suporte por e-mail
billing-plans-free-no-consultant = Sem consultor de IA no WhatsApp
billing-plans-free-no-pdf = Sem plano completo em PDF
billing-plans-free-no-guidance = Sem orientação contínua em marketing, finanças e impostos
billing-plans-pro-consultant = Consultor de IA no WhatsApp 24/7
billing-plans-pro-six-steps = Plano de negócios completo nas 6 etapas
billing-plans-pro-guidance = Orientação em marketing, finanças, gestão e impostos
billing-plans-pro-break-even = Ponto de equilíbrio e projeção de caixa de 12 meses
billing-plans-pro-pdf = Plano completo em PDF e Markdown
billing-plans-pro-guarantee = Garantia de { $days } dias ou seu dinheiro de volta
billing-subscribe-on-whatsapp = { $yearly ->
    [true] Olá! Quero assinar o Sócio Pro anual.
   *[false] Olá! Quero assinar o Sócio Pro mensal.
}
