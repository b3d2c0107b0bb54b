identity-login-hi-i-want-to-start = Hi! I want to start my business plan with Sócio.
identity-message-login-log-me-in-to-the = Log me in to the Sócio website. Code: { $shown }
identity-phone-format-enter-a-phone-number-with = enter a phone number with area code (8 to 15 digits)
identity-login-format-the-code-has-6-digits = the code has 6 digits
identity-device-a-browser = a browser
identity-device-named-browser = a { $browser } browser
identity-device-browser-on = { $browser } on { $system }
