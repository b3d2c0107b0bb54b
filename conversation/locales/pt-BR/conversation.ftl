conversation-delivery-choose = Escolher
conversation-login-question-asked-to-log-in-to =
    🔐 { $who } pediu para entrar na sua conta do Sócio às { $time } (horário de Brasília).
    {""}
    Foi você? Toque no *mesmo número que aparece na tela do navegador*. Se não foi você, não toque em nada (ou escreva NÃO): ninguém entra sem a sua confirmação. Se alguém te pediu para enviar um código ou tocar em um número, não toque: é golpe.
conversation-login-question-asked-to-log-in-to-2 = 🔐 { $who } pediu para entrar na sua conta do Sócio às { $time } (horário de Brasília). Contas de administrador entram *só com o código* enviado para o seu número: no site, peça o código. Ninguém entrou.
conversation-login-question-to-confirm-tap-here-the = Para confirmar, toque aqui no número que aparece na tela do seu navegador. Escrever não basta: assim só você, com o navegador na frente, consegue entrar. Se não foi você, não toque em nada.
conversation-login-question-that-isn-t-the-browser = Esse não é o número do navegador, então cancelei esse acesso: ninguém entrou. Se era você, toque de novo em "Entrar pelo WhatsApp" no site.
conversation-login-question-that-login-request-was-left = Esse pedido de acesso ficou para trás na conversa, então cancelei: ninguém entrou. Se era você, toque de novo em "Entrar pelo WhatsApp" no site.
conversation-login-question-that-login-code-is-no = Esse código de acesso não vale mais (cada um dura 10 minutos e serve uma vez), então ninguém entrou. Para entrar, abra o site do Sócio e toque de novo em "Entrar pelo WhatsApp". 😊
conversation-login-question-done-the-browser-is-logging = ✅ Pronto! O navegador já está entrando na sua conta. Pode voltar para o site.
conversation-login-question-all-good-nobody-got-into = Tudo certo: ninguém entrou na sua conta. Se você não pediu esse acesso, pode ignorar esta mensagem.
conversation-login-question-that-login-request-was-already = Esse pedido de acesso já foi respondido ou expirou (cada um dura 10 minutos), então nada mudou. Para entrar, toque de novo em "Entrar pelo WhatsApp" no site.
conversation-proactive-there = tudo bem
conversation-proactive-your-plan-has-its-numbers = Seu plano já tem os números. Quer que eu volte todo mês para comparar o faturamento real com o plano, e te lembre dos prazos de impostos do seu negócio (como o DAS do MEI)? Só escrevo por conta própria com a sua permissão, e você para quando quiser com PARAR.
conversation-proactive-yes-please = Sim, quero
conversation-proactive-not-now = Agora não
conversation-reminder-words-done-on-the-first-business = Combinado! No primeiro dia útil de cada mês, às 9h, eu pergunto como foi o mês anterior e comparo com o seu plano; e te lembro dos prazos de impostos que valem para o seu negócio. Dia e hora você muda no painel; para parar, escreva PARAR.
conversation-reminder-words-all-right-i-won-t = Tudo bem: não envio nada por conta própria. Se mudar de ideia, ative os lembretes no painel.
conversation-reminder-words-back-to-your-plan = Voltando ao seu plano:
conversation-reminder-words-done-i-won-t-send = Pronto: não envio mais nenhuma mensagem por conta própria. Para voltar a receber os lembretes, escreva VOLTAR.
conversation-reminder-words-done-the-reminders-you-chose = Combinado: os lembretes que você escolheu voltaram. Para parar de novo, escreva PARAR.
