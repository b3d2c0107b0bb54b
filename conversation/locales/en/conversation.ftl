conversation-delivery-choose = Choose
conversation-login-question-asked-to-log-in-to =
    🔐 { $who } asked to log in to your Sócio account at { $time } (Brasília time).
    {""}
    Was it you? Tap the *same number your browser's screen shows*. If it wasn't you, tap nothing (or write NO): nobody gets in without your confirmation. If someone asked you to send a code or tap a number, don't: it's a scam.
conversation-login-question-asked-to-log-in-to-2 = 🔐 { $who } asked to log in to your Sócio account at { $time } (Brasília time). Admin accounts log in *only with the code* sent to your number: ask for the code on the website. Nobody got in.
conversation-login-question-to-confirm-tap-here-the = To confirm, tap here the number your browser's screen shows. Writing isn't enough: that way only you, with the browser in front of you, can log in. If it wasn't you, tap nothing.
conversation-login-question-that-isn-t-the-browser = That isn't the browser's number, so I cancelled this login: nobody got in. If it was you, tap "Log in with WhatsApp" on the website again.
conversation-login-question-that-login-request-was-left = That login request was left behind in our chat, so I cancelled it: nobody got in. If it was you, tap "Log in with WhatsApp" on the website again.
conversation-login-question-that-login-code-is-no = That login code is no longer valid (each lasts 10 minutes and works once), so nobody was logged in. To log in, open the Sócio website and tap "Log in with WhatsApp" again. 😊
conversation-login-question-done-the-browser-is-logging = ✅ Done! The browser is logging in to your account. You can go back to the website.
conversation-login-question-all-good-nobody-got-into = All good: nobody got into your account. If you didn't ask for this, you can ignore this message.
conversation-login-question-that-login-request-was-already = That login request was already answered or has expired (each lasts 10 minutes), so nothing changed. To log in, tap "Log in with WhatsApp" on the website again.
conversation-proactive-there = there
conversation-proactive-your-plan-has-its-numbers = Your plan has its numbers now. Shall I come back every month to compare your real revenue with the plan, and remind you of your business's tax deadlines (such as the MEI's DAS)? I only write on my own with your permission, and you can stop any time with STOP.
conversation-proactive-yes-please = Yes, please
conversation-proactive-not-now = Not now
conversation-reminder-words-done-on-the-first-business = Done! On the first business day of each month, at 9:00, I will ask how the month before went and compare it with your plan, and remind you of the tax deadlines that apply to your business. Change the day and hour on the dashboard; to stop, write STOP.
conversation-reminder-words-all-right-i-won-t = All right: I won't send anything on my own. If you change your mind, turn the reminders on in the dashboard.
conversation-reminder-words-back-to-your-plan = Back to your plan:
conversation-reminder-words-done-i-won-t-send = Done: I won't send you any message on my own anymore. To get the reminders again, write VOLTAR.
conversation-reminder-words-done-the-reminders-you-chose = Done: the reminders you chose are back. To stop them again, write STOP.
