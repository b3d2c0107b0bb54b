billing-checkout-welcome-to-s-cio-pro = 🎉 Welcome to Sócio Pro{ $name }! From now on I'm your consultant here on WhatsApp. Shall we start your business plan? Reply *Hi*.
billing-manual-refunds-your-pro-subscription-was-cancelled = Your Pro subscription was cancelled under the 7-day guarantee. As you paid by boleto, we return the { $amount } by Pix: send me your Pix key here (CPF, CNPJ, e-mail, mobile number or random key). The refund is paid within { $days } business days of receiving the key.
billing-manual-refunds-i-got-your-pix-key = I got your Pix key ({ $key }). The refund of { $amount } will be paid within { $days } business days; I'll let you know here when it is. For your safety the key cannot be changed here any more: if it is wrong, write "human" and our team will sort it out with you.
billing-manual-refunds-refund-paid-we-sent-by = ✅ Refund paid: we sent { $amount } by Pix to the key { $key }. Thank you for trying Sócio.
billing-plans-free = Free
billing-plans-forever = forever
billing-plans-to-get-to-know-s = To get to know Sócio and start organising your idea.
billing-plans-start-for-free = Start for free
billing-plans-month = /month
billing-plans-your-ai-business-consultant-on = Your AI business consultant on WhatsApp, 24/7. Prices in Brazilian reais (BRL).
billing-plans-get-pro = Get Pro
billing-renewals-we-could-not-renew-your = ⚠️ We could not renew your Sócio Pro: the payment was declined. Update your payment method here: { $fix_url }
billing-plans-free-template = Basic business plan template
billing-plans-free-dashboard = Dashboard with your plan's progress
billing-plans-free-email-support = E-mail support
billing-plans-free-no-consultant = No AI consultant on WhatsApp
billing-plans-free-no-pdf = No complete plan as PDF
billing-plans-free-no-guidance = No ongoing guidance on marketing, finance and tax
billing-plans-pro-consultant = AI consultant on WhatsApp 24/7
billing-plans-pro-six-steps = Complete business plan across the 6 steps
billing-plans-pro-guidance = Guidance on marketing, finance, management and tax
billing-plans-pro-break-even = Break-even point and 12-month cash-flow projection
billing-plans-pro-pdf = Complete plan as PDF and Markdown
billing-plans-pro-guarantee = { $days }-day money-back guarantee
billing-subscribe-on-whatsapp = { $yearly ->
    [true] Hi! I want to subscribe to Sócio Pro, yearly.
   *[false] Hi! I want to subscribe to Sócio Pro, monthly.
}
