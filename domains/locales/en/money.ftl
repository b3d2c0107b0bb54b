money-checks-each-sale-costs-for-a = Each sale costs { $variable_cost_per_sale } for a price of { $ticket }: every sale loses money. Check the cost or the price.
money-checks-there-are-of-fixed-costs = There are { $monthly_fixed_costs } of fixed costs a month and no sales expected.
money-checks-at-the-expected-pace-the = At the expected pace the year's revenue is { $year }, over the MEI limit of { $yearly }. { $get } { $computed }
money-checks-a-team-of-people-does = A team of { $team } people does not fit an MEI: { $get }
money-checks-the-startup-investment-of-has = The startup investment of { $startup_costs } has no funding source yet: say where the money comes from (savings, a partner, a loan…).
money-pricing-taxes-left-out-of-the = Taxes left out of the price: { $tax }
money-pricing-without-the-financial-plan-average = Without the financial plan (average ticket, sales and fixed costs), the price leaves out taxes and fixed costs: fill in the Finance step and the regime to see them.
money-pricing-taxes = Taxes
money-pricing-card-fees = Card fees
money-pricing-commission = Commission
money-pricing-other-variable-costs = Other variable costs
money-pricing-fixed-costs = Fixed costs
money-pricing-margin = Margin
money-pricing-cost = Cost
money-pricing-a-margin-is-below-your = A { $target_margin } % margin is below your plan's ({ $margin } %).
money-pricing-is-far-from-your-plan = { $price } is far from your plan's average ticket ({ $average_ticket }): check the cost or update the plan.
money-pricing-a-cost-of-of-materials = a cost of { $unit_cost } ({ $unit_cost2 } of materials + { $hours_per_unit } h × { $per_hour } an hour, the fixed costs and pró-labore ÷ { $billable_hours_per_month } billable hours)
money-pricing-a-cost-of = a cost of { $unit_cost }
money-pricing-price-cost-1-the-price = Price = cost ÷ (1 − the price's shares) = { $unit_cost } ÷ { $divisor_words } = { $price } ({ $cost_words }; { $listed }). Taxes, card fees, commission, fixed costs and margin come out of each sale's price, so they divide the cost instead of being added to it: adding the percentage to the cost would leave money short (the markup divisor, Sebrae).
money-pricing-on-the-invoice-cbs-ibs = On the invoice: { $price } + CBS/IBS = { $invoice_total } ({ $named }): the CBS and IBS are charged on top of the price, on it without ISS/ICMS, and a business customer takes the credit.{ $premise }
money-reform-choice-outside-costs-you-less = outside costs you less
money-reform-choice-outside-costs-more-a-month = outside costs { $difference } more a month, less than your business customers gain in credit: worth it if they can pay a little more, or if you would lose sales to suppliers who give full credit
money-reform-choice-inside-the-das-you-pay = inside the DAS you pay { $difference } less a month; outside pays off only if it keeps business customers
money-reform-choice-inside-the-das-a-month = Inside the DAS: { $inside } a month (Annex { $annex }, { $effective } % of { $revenue }), and a business customer takes as credit only the DAS's CBS part, { $pis_cofins }. Outside: the DAS loses its PIS/Cofins part and is { $brl }, plus CBS and IBS at { $rate } % on sales without ICMS/ISS, less { $purchase_credits } of credits on purchases{ $purchases } — { $outside } in all. Difference: { $difference } a month; your business customers ({ $share } % of sales{ $assumed }) would gain { $customers_gain } of credit a month. In short: { $verdict }. The choice holds for the whole half-year and cannot be undone in it; the next window runs until { $by }, for the { $half }.{ $premise } { $source }
taxes-explain-no-taxes-in-the-numbers = No taxes in the numbers: no tax regime was chosen (Legal step). Choose MEI, Simples Nacional or Lucro Presumido to see the month's tax.
taxes-explain-taxes-are-not-in-these = { $name }: taxes are not in these numbers ({ $why }); ask an accountant for your case. { $regimes } { $citation }
taxes-explain-commerce-and-services-no-activity = commerce and services (no activity given: the highest value)
taxes-explain-mei-a-fixed-das-of = MEI ({ $assumed }): a fixed DAS of { $das } a month, even with no revenue { $fact }.
taxes-explain-is = ⚠️ { $das } is { $why } ({ $source }).
taxes-explain-is-s-value-the-next = ⚠️ { $das } is { $year }'s value; the next year's is not published here yet (it follows the new minimum wage).
taxes-explain-the-plan-bills-a-year = The plan bills { $yearly_revenue } a year, { $excess } over the { $yearly } ceiling (up to 20 %): it pays { $rate } % on the excess, { $e } once with January's DAS (here { $brl } a month), and leaves the MEI the next year { $source }.
taxes-explain-the-plan-bills-a-year-2 = The plan bills { $rbt12 } a year, more than 20 % over the MEI's { $yearly } ceiling: the MEI is excluded back to January and pays as a Simples Nacional company { $source }.
taxes-explain-since-1-january-the-business = Since 1 January { $next } the business is an ME in the Simples Nacional: its recorded { $year } revenue ({ $revenue }) passed the MEI's limit ({ $limit }) (LC 123/2006 art. 18-A §7º III). The DAS is now worked out every month in the PGDAS-D. If you are still a MEI (part of the revenue was not the activity's, say), say so in the Legal step.
taxes-explain-the-plan-s-expected-12 = the plan's expected 12-month revenue
taxes-explain-the-revenue-recorded-for-the = the revenue recorded for the last 12 months
taxes-explain-the-average-of-the-recorded = { $n ->
        [one] the one recorded month
       *[other] the average of the { $n } recorded months
    } × 12 (Res. CGSN 140/2018 art. 22)
taxes-explain-simples-nacional-annex-an-effective = Simples Nacional, Annex { $annex }: an effective rate of { $effective } % = ({ $rbt12 } × { $nominal } % − { $deduction }) ÷ { $rbt12 }, on { $revenue } { $source }.
taxes-explain-the-annex-comes-from-cnae = The annex comes from CNAE { $cnae } ({ $name }, { $basis }) { $source }.
taxes-explain-without-the-cnae-annex-iii = Without the CNAE, Annex III of the service occupations a MEI may have: give the CNAE (Legal step) to confirm.
taxes-explain-the-annex-comes-from-the = The annex comes from the activity (commerce: I; industry: II).
taxes-explain-fator-r-of-12-months = Fator R of { $r } % (12 months' payroll ÷ 12 months' revenue; { $threshold } % or more: Annex III, below: Annex V). The payroll counts wages, pró-labore, the 13th, the vacation third and FGTS ({ $payroll_source }).
taxes-explain-without-the-payroll-wages-and = Without the payroll (wages and pró-labore in the Finance step), the Fator R cannot be worked out: Annex V, the dearest.
taxes-explain-in-annex-iv-the-cpp = In Annex IV the CPP (employer INSS, { $rate } % of payroll) is paid outside the DAS: { $cpp } a month ({ $source }).
taxes-explain-in-annex-iv-the-cpp-2 = In Annex IV the CPP (employer INSS) is paid outside the DAS: give wages and pró-labore to add it.
taxes-explain-iss-at-give-your-city = ISS at { $rate } % (give your city's rate, 2 % to 5 %, in the Legal step)
taxes-explain-an-effective-icms-of = an effective ICMS of { $rate } %
taxes-explain-icms-left-out-give-its = ICMS left out: give its effective rate after credits (Legal step)
taxes-explain-on-revenue-above-r-5 = {" "}On revenue above R$ 5 million a year, the presumption is 10 % higher (LC 224/2025).
taxes-explain-pis-and-cofins-on-revenue = PIS { $pis } % and Cofins { $cofins } % on revenue;{" "}
taxes-explain-lucro-presumido-irpj-on-a = Lucro Presumido ({ $activity }): { $federal }IRPJ { $irpj } % on a presumed profit of { $presumption_irpj } % of revenue, plus { $irpj_additional } % on the presumed profit above { $additional_above_monthly } a month; CSLL { $csll } % on a presumption of { $presumption_csll } %; { $local }.{ $lc224 } { $source }
taxes-explain-since-2027-pis-and-cofins = Since 2027 PIS and Cofins are gone: the CBS at { $cbs } % and the IBS at { $ibs } % come in, on revenue without ISS and ICMS, charged on top of the price and shown on the invoice — a business customer takes the credit; here they count in the month's taxes, as if out of your margin, until you pass them on in the price { $source }.
taxes-explain-the-cbs-uses = ⚠️ The CBS uses { $premise } ({ $source }).
taxes-explain-with-the-reduction-of-regulated = With the { $regulated_reduction } % reduction of regulated intellectual professions (LC 214/2025 art. 127).
taxes-explain-if-yours-is-a-regulated = If yours is a regulated intellectual profession, supervised by a council (accountant, lawyer, architect, engineer, administrator…), the CBS and IBS are { $regulated_reduction } % lower (LC 214/2025 art. 127): say so in the Legal step — we did not assume it.
taxes-explain-the-tax-is-not-in = { $name }: the tax is not in the numbers yet. For services, the Simples annex (III, IV or V) and the presumption depend on the exact activity: give the CNAE (for example 9602-5/01, hairdressers) in the Legal step, and the payroll (wages and pró-labore) in the Finance step.
taxes-explain-the-tax-is-not-in-2 = { $name }: the tax is not in the numbers yet. Commerce and services are taxed differently: give the main activity's CNAE in the Legal step (and, if much of the revenue comes from the other activity, ask an accountant for the split).
taxes-explain-to-move-from-annex-v = To move from Annex V to III: with { $extra_pro_labore } more pró-labore a month (kept over the Fator R's 12 months), the Fator R reaches { $threshold } % and the DAS falls from { $das_v } to { $das_iii } a month; the partner's INSS on the increase ({ $inss } %, up to the ceiling) is { $inss2 } — a net saving of { $saving } a month. The pró-labore is no new cost: it is profit paid as remuneration (the partner's income tax on it is not in this sum) ({ $source }).
taxes-explain-reaching-annex-iii-by-the = Reaching Annex III by the Fator R would take { $extra_pro_labore } more pró-labore a month, and the INSS on it ({ $inss }) eats the DAS saving ({ $das_v } → { $das_iii }): not worth it today.
money-taxes-commerce = commerce
money-taxes-industry = industry
money-taxes-services = services
money-taxes-commerce-and-services = commerce and services
money-taxes-das-on-the-excess-1 = DAS on the excess (1/12)
money-taxes-cpp-employer-inss = CPP (employer INSS)
money-taxes-source = (source: { $source }, { $as_of })
taxes-presumido-irpj-additional = IRPJ (additional)
money-checks-little-is-left-of-each = Little is left of each sale: the contribution margin is { $contribution_margin } ({ $ratio } % of the price), under 10 %.
taxes-explain-why-lucro-real = they depend on the actual profit, credits and payroll
taxes-explain-why-above-simples = the 12-month revenue is above the Simples' ceiling (R$ 4.8 million)
money-checks-ceiling-computed = { $tolerated ->
    [true] The numbers include the tax on the excess.
   *[false] The numbers already treat the business as the Simples Nacional company it becomes.
}
money-reform-choice-half-of-year = { $half ->
    [1] first half of { $year }
   *[2] second half of { $year }
}
money-reform-choice-purchases-estimated = {" "}(estimated from the plan's variable costs; give your purchases from suppliers who charge CBS and IBS)
money-reform-choice-share-assumed = {" "}(an assumption: half the sales to companies — give yours)
