identity-login-hi-i-want-to-start = Olá! Quero começar meu plano de negócios com o Sócio.
identity-message-login-log-me-in-to-the = Quero entrar no site do Sócio. Código: { $shown }
identity-phone-format-enter-a-phone-number-with = informe um número de telefone com DDD (8 a 15 dígitos)
identity-login-format-the-code-has-6-digits = o código tem 6 dígitos
identity-device-a-browser = um navegador
identity-device-named-browser = um navegador { $browser }
identity-device-browser-on = { $browser } no { $system }
