consultant-guide-i-couldn-t-read-the = I couldn't read the new value. Send, for example: "correct: fixed costs 18k".
consultant-guide-corrected =
    Corrected ✅
    { $plan }
consultant-guide-done-i-ll-speak-english = Done! I'll speak English from now on.
consultant-guide-your-plan-your-dashboard =
    Your plan: { $links }
    Your dashboard: { $links2 }
consultant-guide-fine-let-s-move-on = Fine, let's move on.
consultant-guide-to-edit-it = To edit it: { $links }
consultant-guide-all-right-another-time = All right, another time.
consultant-guide-let-s-build-your-business = Let's build your business plan, step by step. Current step:
consultant-guide-i-couldn-t-read-that = I couldn't read that answer. Could you try again? (or say "skip")
consultant-guide-i-read-cnae-if-that = I read CNAE { $code } ({ $name }). If that's not it, write "corrigir: cnae" and the right code.
consultant-guide-got-it = Got it! ✅
consultant-guide-step = ✅ Step
consultant-guide-complete = complete!
consultant-guide-of-the-plan = of the plan
consultant-guide-next-step = Next step:
guide-suggestions-no-problem-let-s-think =
    No problem, let's think it through — I haven't noted anything yet. 💡 { $suggestion }
    {""}
    { $question }
guide-words-business-idea = Business idea
guide-words-market = Market
guide-words-finance = Finance
guide-words-people = People
guide-words-legal-and-tax = Legal and tax
guide-words-menu-progress-how-your-plan =
    📋 *Menu*
    • *progress* — how your plan is going
    • *plan* — the complete plan as a PDF, right here
    • *results* — record last month's revenue and costs
    • *dashboard* — links to your plan and dashboard
    • *skip* — skip the current question
    • *help* — how I work
    • *Português* — mudar para português
guide-words-i-ask-about-each-step = I ask about each step of your plan (idea, market, finance, marketing, people and legal) and save your answers into your plan, which you see on your dashboard. Answer in your own words; amounts can be like "R$ 1,500" or "1.5k". Say *menu* for the commands. Remember: my guidance is educational and does not replace an accountant or a lawyer.
guide-words-your-plan-is-at = Your plan is at
guide-words-congratulations-every-step-of-your =
    🎉 Congratulations! Every step of your plan is complete. Generate the complete plan as a PDF on the website: { $links }
    {""}
    Want to review something? Say *progress* or *menu*.
guide-words-summary = Summary:
guide-words-tip-visit-or-follow-3 = 💡 Tip: visit or follow 3 competitors and note prices, service and reviews. Your opportunity is in what they do badly.
guide-words-tip-start-with-one-or = 💡 Tip: start with one or two channels and do them well; ask your first customers for reviews and referrals.
guide-words-with-the-regime-you-chose = 📊 With the regime you chose, taxes come to { $taxes } a month and the estimated monthly result, after taxes, is { $result }.
guide-words-tip-keep-a-reserve-of = 💡 Tip: keep a reserve of at least 3 months of fixed costs.
guide-words-your-break-even-point-is = Your break-even point is { $sales } sales a month ({ $revenue } in revenue).
guide-words-careful-each-sale-costs-more = Careful: each sale costs more than its price — there is no break-even point.
guide-words-with-the-sales-you-expect = With the sales you expect, the estimated monthly result, after taxes ({ $taxes }), is { $result }.
guide-words-with-the-sales-you-expect-2 = With the sales you expect, the estimated monthly result is { $result }, before taxes: the regime comes in the Legal step, and I'll redo the sum then.
guide-words-tip-keep-a-reserve-of-2 = Tip: keep a reserve of at least 3 months of fixed costs.
guide-words-marketing = Marketing
guide-field-business-idea = Idea
guide-field-problem = Problem it solves
guide-field-differentiator = What sets it apart
guide-field-stage = Stage
guide-field-industry = Industry
guide-field-target-customer = Ideal customer
guide-field-competitors = Competitors
guide-field-location = Location
guide-field-strengths = Strengths
guide-field-weaknesses = Weaknesses
guide-field-opportunities = Opportunities
guide-field-threats = Threats
guide-field-startup-costs = Start-up investment
guide-field-working-capital = Working capital
guide-field-monthly-fixed-costs = Fixed costs a month
guide-field-average-ticket = Average ticket
guide-field-variable-cost-per-sale = Cost per sale
guide-field-expected-sales-per-month = Sales a month
guide-field-funding-source = Funding
guide-field-monthly-wages = Wages a month
guide-field-monthly-pro-labore = Pró-labore a month
guide-field-channels = Channels
guide-field-positioning = Positioning
guide-field-launch-plan = Launch
guide-field-team-size = People
guide-field-roles = Roles
guide-field-partners = Partners
guide-field-business-type = Legal form
guide-field-company-size = Size
guide-field-tax-regime = Tax regime
guide-field-activity = Activity
guide-field-cnae = CNAE
guide-field-cnpj-status = CNPJ
guide-field-profession = Regulated profession
guide-field-licences = Licences and permits
guide-suggestion-business-idea = Think of three things: what you sell, to whom and where. E.g. "a neighbourhood bakery with sourdough bread and coffee, in Campinas".
guide-suggestion-problem = Think of what bothers your customers today: no option nearby, high prices, little time, poor quality. E.g. "there is no fresh bread in the neighbourhood in the afternoon".
guide-suggestion-differentiator = Pick one thing you can be the best at around you: quality, service, opening hours, delivery, price or a speciality. E.g. "bread out of the oven every two hours and orders on WhatsApp".
guide-suggestion-industry = It is the line of what you sell: food, beauty, fashion, health, education, home services, technology…
guide-suggestion-target-customer = Describe a real person who would buy from you: age, where they live or work, what they can spend and what they value most. E.g. "local families, 30 to 50, who buy bread every day".
guide-suggestion-competitors = List 2 or 3 places where your customers buy today (online too) and one good and one bad thing about each. If you don't know yet, look them up on Google Maps and Instagram, or visit them.
guide-suggestion-location = Think of where your customers pass by: near home, work, schools or bus stops — and of the rent you can afford. Starting from home or online only counts too. E.g. "Cambuí, in Campinas" or "online, delivering in the city".
guide-suggestion-strengths = Strengths are what you already have going for you: experience in the trade, a recipe or technique, a good spot, customers who already know you, good service.
guide-suggestion-weaknesses = Weaknesses are what is still missing inside: little money to start, little management experience, a small team, an unknown brand. Naming them helps you plan.
guide-suggestion-opportunities = Opportunities come from outside: a growing neighbourhood, no competitor nearby, a new customer habit, seasons like the year-end holidays, selling through apps.
guide-suggestion-threats = Threats come from outside too: a big competitor arriving, rising costs (materials, rent, energy), a new law, the economy.
guide-suggestion-startup-costs = Add up what you must buy before opening: equipment, fit-out, first stock, furniture, registering the business and the first promotion. Get two quotes for each big item. E.g. R$ 20,000.
guide-suggestion-working-capital = A rule of thumb is to keep 2 to 3 months of fixed costs, to pay the bills while sales grow. E.g. with fixed costs of R$ 5,000, keep R$ 10,000 to R$ 15,000.
guide-suggestion-monthly-fixed-costs = They are the costs that come every month, sales or not: rent, salaries, accountant, internet, power, your own pay. Add each one. E.g. R$ 6,000.
guide-suggestion-average-ticket = It is what each customer spends per purchase on average. Look at similar competitors' prices, or think of what a typical customer buys. E.g. R$ 25.
guide-suggestion-variable-cost-per-sale = It is what each sale costs you: ingredients or goods, packaging, the card machine's or the app's fee. E.g. "R$ 8" or "35% of the price".
guide-suggestion-expected-sales-per-month = Start with a day: how many customers do you serve on a normal day? Then say how many days a week you open. E.g. "40 a day, Tuesday to Sunday".
guide-suggestion-funding-source = The usual sources: your savings, family, a partner, a loan from a bank or credit union, microcredit, Pronampe (for businesses already registered).
guide-suggestion-channels = Start where your customers already are: WhatsApp and Instagram nearly always; Google Business Profile for people searching the map; iFood or apps for food; your own shop and referrals.
guide-suggestion-positioning = Pick one way to be remembered and use it everywhere: "the freshest bread in the neighbourhood", "the service that knows your name", "the best value for quality".
guide-suggestion-launch-plan = Ideas for the first month: a tasting week or an opening discount, telling friends and neighbours on WhatsApp, partnering with nearby shops, posting daily on Instagram.
guide-suggestion-team-size = Count everyone who will work, you and family helpers included. E.g. "me and my daughter" is 2.
guide-suggestion-roles = Think of what must be done every day: producing, serving, selling, delivering, buying and bookkeeping — and who does each.
guide-suggestion-partners = If you will have a partner, say who, what they do and how much money they put in; if not, answer "no, just me".
guide-suggestion-monthly-pro-labore = Add a month's gross CLT wages; the pró-labore is what the owners take as pay. If there is none yet, answer 0.
guide-suggestion-profession = It is regulated if a council supervises the profession and the partners holding the qualification do the work: accountant (CRC), lawyer (OAB), architect (CAU), engineer (CREA), administrator (CRA), economist, chemist and others, 18 in all (LC 214/2025 art. 127). Consulting, marketing or IT in general are not.
guide-suggestion-any = Answer as best you can today — you can correct it later with "correct:".
guide-words-your-plan-is-complete-what-now = Your plan is complete ✅. I can work out a product's price, record a month's figures or send the plan as a PDF — just ask (or say *menu*).
