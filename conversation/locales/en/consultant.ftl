consultant-answer-checks-i-read-is-that-right = I read { $what } — is that right? Reply *yes* to save it, or send the right figure.
consultant-answer-checks-a-sale-price-of-is = { $cost } a sale, { $cost_is ->
        [equal] the same as the
       *[more] more than the
    } price of { $ticket } — is that right? Then every sale { $cost_is ->
        [equal] leaves nothing towards the fixed costs
       *[more] loses money
    }. Reply *yes* to save it, or send the right cost.
consultant-answer-checks-a-sale = { $brl } a sale
consultant-answer-checks-sales-a-month = { $value } sales a month
consultant-answer-checks-got-it-sales-a-day = Got it, { $per_day } sales a day. How many days a week do you work? (e.g. 5, or "Tuesday to Saturday")
consultant-asides-good-question-i-can-t = Good question! I can't answer that one reliably here in the guide, so I didn't note anything down. If you like, write *talk to a person* and someone from the team will answer. Meanwhile, on with your plan:
consultant-asides-by-your-plan-break-even = By your plan, break-even is { $sales } sales a month ({ $revenue } of revenue), taxes included.
consultant-asides-with-today-s-figures-there = With today's figures there is no break-even: each sale does not cover its own cost and taxes.
consultant-asides-to-work-out-break-even = To work out break-even I need the average ticket and the sales a month — we get there in the finance step.
consultant-asides-no-a-salary-does-not = No: a salary does not count toward the MEI limit.
consultant-asides-by-your-plan-your-fator = By your plan, your Fator R today is { $now } % (below 28 %: Annex V). { $lever }
consultant-engine-automatic-recap-no-model-earlier = Automatic recap (no model): { $messages } earlier messages. The plan holds what was said:
consultant-engine-english = English
consultant-plan-delivery-business-plan = business-plan
consultant-plan-delivery-your-complete-business-plan-version = 📄 Your complete business plan (version { $version }). You can also edit it on the website.
consultant-plan-request-i-ll-put-your-complete = 📄 I'll put your complete business plan together as a PDF and send it here in a moment.
consultant-pricing-words-to-work-out-the-selling = To work out the selling price, tell me one unit's cost and the margin you want — and the card fee and commission, if any. For example: "cost R$ 30, card 4%, margin 25%". I take taxes and fixed costs from your plan.
consultant-pricing-words-selling-price-of-each-sale =
    💰 Selling price: *{ $price }*.
    Of each sale: { $parts }.
    { $explanation }
consultant-pricing-words-want-this-price-as-your = Want this price as your plan's average ticket? Write: corrigir: ticket R$ { $price }
consultant-replies-hi = Hi { $name }!
consultant-replies-hi-2 = Hi!
consultant-replies-of-course = Of course, { $name }!
consultant-replies-of-course-2 = Of course!
consultant-replies-i-ve-called-a-person = { $greeting } I've called a person from our team: they will answer you right here, in this chat, as soon as they can. Meanwhile, feel free to keep telling me about your business.
consultant-replies-i-m-s-cio-your =
    { $greeting } 👋 I'm Sócio, your AI business consultant.
    {""}
    Together we'll build a complete business plan — idea, market, finance, marketing, people and legal — and I'll guide you on marketing, finance, management and tax, right here on WhatsApp, 24/7.
    {""}
    I'm an AI and I only talk business; if you need to, a person from our team can join the chat — just ask.
consultant-replies-to-get-started-choose-your =
    To get started, choose your plan: { $checkout }
    {""}
    Pro costs { $monthly } a month (or { $yearly } for a year), in Brazilian reais, with a 7-day money-back guarantee.
consultant-replies-the-free-plan-gives-you =
    { $greeting } The Free plan gives you the basic business plan template and the dashboard on the website, but the AI consultant here on WhatsApp is part of the Pro plan.
    {""}
    Get Pro to talk to me any time: { $checkout }
consultant-replies-i-got-your-voice-note = 🎧 I got your voice note, but I can't listen to voice messages yet. Could you write to me?
consultant-replies-i-got-your-file-and = 📎 I got your file and kept it, but for now I can only read text. If you can, tell me in writing.
consultant-replies-thanks-for-the-location-i = 📍 Thanks for the location, I've noted it.
consultant-replies-i-got-your-message-but = I got your message, but I can't read that kind of content yet. Could you send it as text?
consultant-results-interview-let-s-close-how-much = Let's close { $month }. How much did you bill in the month (in reais)?
consultant-results-interview-and-how-much-went-out = And how much went out in the month, costs and expenses together (in reais)?
consultant-results-interview-how-many-sales-or-clients = How many sales (or clients served) were there in the month?
consultant-results-interview-i-couldn-t-read-that = I couldn't read that number. Could you send just the figure? (or say "skip")
consultant-results-interview-recorded-revenue-costs-and-a = ✅ { $month } recorded: revenue { $revenue }, costs { $costs } and a result of { $recorded } ({ $sales_count } sales).
consultant-results-interview-the-plan-expected-of-revenue = {" "}The plan expected { $revenue } of revenue and { $result } of result a month: a difference of { $revenue_gap } in revenue and { $result_gap } in result.
consultant-scope-i-m-s-cio-an = I'm Sócio, an AI business consultant: I can help with your business — plan, finance, marketing, management and tax — but not with other topics. 😊
consultant-replies-subscribe-link =
    { $yearly ->
        [true] Here is your link to subscribe to Pro, yearly ({ $price } for a year, 7-day money-back guarantee): { $link }
       *[false] Here is your link to subscribe to Pro, monthly ({ $price } a month, 7-day money-back guarantee): { $link }
    }

    As soon as the payment is confirmed, I'll let you know here and we'll start your plan.
