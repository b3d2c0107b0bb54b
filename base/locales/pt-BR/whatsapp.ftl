whatsapp-sender-is-your-s-cio-login = {"*"}{ $code }* é o seu código de acesso do Sócio. Ele vale por 10 minutos. Não compartilhe este código com ninguém.
whatsapp-templates-hi-how-did-go-for = Oi, { $param }! Como foi { $param2 } no seu negócio? Me conte o faturamento, os custos e o número de vendas do mês, que eu comparo com o seu plano. Para não receber mais lembretes, responda PARAR.
whatsapp-templates-hi-a-reminder-from-s = Oi, { $param }! Lembrete do Sócio: { $param2 } Para não receber mais lembretes, responda PARAR.
