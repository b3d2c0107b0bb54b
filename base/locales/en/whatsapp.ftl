whatsapp-sender-is-your-s-cio-login = {"*"}{ $code }* is your Sócio login code. It is valid for 10 minutes. Do not share this code with anyone.
whatsapp-templates-hi-how-did-go-for = Hi, { $param }! How did { $param2 } go for your business? Tell me the month's revenue, costs and number of sales, and I will compare them with your plan. To stop these reminders, reply STOP.
whatsapp-templates-hi-a-reminder-from-s = Hi, { $param }! A reminder from Sócio: { $param2 } To stop these reminders, reply STOP.
