error-invalid-input = Dados inválidos: { $first }
error-the-request-body-is-not = O corpo da requisição não é válido: { $detail }
error-please-log-in-to-continue = Faça login para continuar.
error-access-denied-you-are-not = Acesso negado. Você não tem permissão para esta ação.
error-already-exists = { $resource } já existe.
error-is-already-answering-this-conversation = Esta conversa já está sendo atendida por { $by }.
error-too-many-attempts-try-again = Muitas tentativas. Tente novamente em { $retry_after_secs ->
        [one] { $retry_after_secs } segundo
       *[other] { $retry_after_secs } segundos
    }.
error-number-not-registered-send-s = Número não registrado. Envie uma mensagem para o Sócio no WhatsApp para começar.
error-invalid-or-expired-code-please = Código inválido ou expirado. Confira o código e tente novamente.
error-you-are-already-following-the = Você já acompanha o plano em { $max } telas abertas. Feche uma delas para abrir outra.
error-the-service-is-temporarily-unavailable = Serviço temporariamente indisponível. Tente novamente em instantes.
error-the-payment-provider-refused-the = O provedor de pagamentos recusou a operação. Nada foi alterado na sua assinatura; fale com o suporte.
error-we-could-not-reach-the = Não conseguimos falar com o provedor de pagamentos agora. Nada foi alterado na sua assinatura: tente de novo em instantes.
error-something-went-wrong-on-our = Algo deu errado do nosso lado. Tente novamente.
error-the-active-prompt-cannot-be = O prompt ativo não pode ser excluído. Ative outro prompt primeiro.
error-the-ai-consultant-is-part = O consultor de IA é exclusivo do plano Pro. Assine o Pro para conversar com ele.
error-this-person-has-not-written = Esta pessoa não escreve há mais de 24 horas, e o WhatsApp só permite responder dentro de 24 horas da última mensagem dela. A mensagem não foi enviada.
error-the-person-has-not-given = A pessoa ainda não informou a chave Pix: o reembolso não pode ser pago antes disso.
error-this-refund-was-already-paid = Este reembolso já foi pago.
error-this-number-already-has-s = Este número já tem o Sócio Pro ativo: nada foi cobrado. Para mudar do mensal para o anual, entre no painel e use "Mudar para anual".
error-this-refund-s-pix-key = A chave Pix deste reembolso não é a que você viu na lista: nada foi registrado. Recarregue a lista e confira a chave antes de pagar.
error-your-pix-key-for-the = Sua chave Pix para o reembolso já está registrada e o pagamento está em andamento; por segurança, ela não pode ser trocada por aqui. Se estiver errada, escreva "atendente" no WhatsApp e nossa equipe resolve com você.
error-paying-ibs-and-cbs-inside = A escolha de pagar IBS e CBS dentro ou fora do DAS é das empresas do Simples Nacional (não do MEI): no plano, escolha o Simples Nacional e a atividade (com o CNAE, se for serviço) na etapa Jurídico, e o ticket médio e as vendas na etapa Financeiro.
error-we-sent-you-a-code = Enviamos um código há pouco e ele continua valendo: confira o WhatsApp. Você pode pedir outro em { $retry_after_secs ->
        [one] { $retry_after_secs } segundo
       *[other] { $retry_after_secs } segundos
    }.
error-too-many-wrong-codes-try = Muitas tentativas com códigos errados. Tente novamente em { $minutes ->
        [one] { $minutes } minuto
       *[other] { $minutes } minutos
    }.
error-is-required = { $field } é obrigatório
error-must-be-at-most-characters = { $field } deve ter no máximo { $max } caracteres
error-must-be-at-least-characters = { $field } deve ter pelo menos { $min } caracteres
error-must-be-between-and = { $field } deve estar entre { $min } e { $max }
error-format = { $field }: { $format }
error-no-nul = não pode conter o caractere nulo (\0)
error-must-be-one-of = { $field } deve ser um de: { $values }
error-user = Usuário
error-business-plan = Plano de negócios
error-system-prompt = Prompt do sistema
error-checkout-session = Sessão de pagamento
error-subscription = Assinatura
error-job = Tarefa
error-file = Arquivo
error-login-request = Pedido de acesso
error-refund = Reembolso
error-user-not-found = Usuário não encontrado.
error-business-plan-not-found = Plano de negócios não encontrado.
error-system-prompt-not-found = Prompt do sistema não encontrado.
error-checkout-session-not-found = Sessão de pagamento não encontrada.
error-no-active-subscription = Nenhuma assinatura ativa.
error-job-not-found = Tarefa não encontrada.
error-file-not-found = Arquivo não encontrado.
error-login-request-not-found-start = Pedido de acesso não encontrado. Comece de novo pelo botão Entrar pelo WhatsApp.
error-no-pending-pix-refund = Nenhum reembolso por Pix pendente.
json-input-format-must-be-a-number = deve ser um número
input-format-true-or-false = verdadeiro ou falso (true/false)
input-format-a-text = um texto
input-format-a-number = um número
