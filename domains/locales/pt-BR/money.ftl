money-checks-each-sale-costs-for-a = O custo de cada venda ({ $variable_cost_per_sale }) é igual ou maior que o preço ({ $ticket }): cada venda dá prejuízo. Confira o custo ou o preço.
money-checks-there-are-of-fixed-costs = Há { $monthly_fixed_costs } de custos fixos por mês e nenhuma venda prevista.
money-checks-at-the-expected-pace-the = No ritmo previsto o faturamento do ano é { $year }, acima do limite do MEI de { $yearly }. { $get } { $computed }
money-checks-a-team-of-people-does = Uma equipe de { $team } pessoas não cabe no MEI: { $get }
money-checks-the-startup-investment-of-has = O investimento inicial de { $startup_costs } ainda não tem de onde vir: informe a fonte dos recursos (reserva própria, sócio, empréstimo…).
money-pricing-taxes-left-out-of-the = Impostos fora do preço: { $tax }
money-pricing-without-the-financial-plan-average = Sem o plano financeiro (ticket médio, vendas e custos fixos), o preço não inclui impostos nem custos fixos: preencha a etapa Finanças e o regime para vê-los.
money-pricing-taxes = Impostos
money-pricing-card-fees = Taxas de cartão
money-pricing-commission = Comissão
money-pricing-other-variable-costs = Outros custos variáveis
money-pricing-fixed-costs = Custos fixos
money-pricing-margin = Margem
money-pricing-cost = Custo
money-pricing-a-margin-is-below-your = A margem de { $target_margin } % é menor que a do seu plano ({ $margin } %).
money-pricing-is-far-from-your-plan = { $price } está longe do ticket médio do seu plano ({ $average_ticket }): confira o custo ou ajuste o plano.
money-pricing-a-cost-of-of-materials = custo de { $unit_cost } ({ $unit_cost2 } de material + { $hours_per_unit } h × { $per_hour } a hora, que são custos fixos e pró-labore ÷ { $billable_hours_per_month } horas faturáveis)
money-pricing-a-cost-of = custo de { $unit_cost }
money-pricing-price-cost-1-the-price = Preço = custo ÷ (1 − partes do preço) = { $unit_cost } ÷ { $divisor_words } = { $price } ({ $cost_words }; { $listed }). Impostos, maquininha, comissão, custos fixos e margem saem do preço de cada venda, por isso dividem o custo em vez de somar ao custo: somar a porcentagem ao custo deixaria faltar dinheiro (método do markup divisor, Sebrae).
money-pricing-on-the-invoice-cbs-ibs = Na nota: { $price } + CBS/IBS = { $invoice_total } ({ $named }): a CBS e o IBS são cobrados por fora do preço, sobre ele sem o ISS/ICMS, e o cliente empresa toma o crédito.{ $premise }
money-reform-choice-outside-costs-you-less = por fora sai mais barato para você
money-reform-choice-outside-costs-more-a-month = por fora custa { $difference } a mais por mês, menos do que os seus clientes empresa ganham de crédito: vale se eles puderem pagar um pouco mais ou se você perderia vendas para quem dá crédito cheio
money-reform-choice-inside-the-das-you-pay = dentro do DAS você paga { $difference } a menos por mês; por fora só compensa se isso segurar clientes empresa
money-reform-choice-inside-the-das-a-month = Dentro do DAS: { $inside } por mês (Anexo { $annex }, { $effective } % sobre { $revenue }), e o cliente empresa só aproveita o crédito da parte da CBS no DAS, { $pis_cofins }. Por fora: o DAS perde a parte de PIS/Cofins e fica { $brl }, mais CBS e IBS de { $rate } % sobre as vendas sem o ICMS/ISS, menos { $purchase_credits } de créditos das compras{ $purchases } — { $outside } no total. Diferença: { $difference } por mês; seus clientes empresa ({ $share } % das vendas{ $assumed }) ganhariam { $customers_gain } de crédito por mês. Em resumo: { $verdict }. A escolha vale para o semestre inteiro e não pode ser desfeita nele; a próxima janela vai até { $by }, para o { $half }.{ $premise } { $source }
taxes-explain-no-taxes-in-the-numbers = Sem impostos nas contas: o regime tributário não foi escolhido (etapa Jurídico). Escolha MEI, Simples Nacional ou Lucro Presumido para ver o imposto do mês.
taxes-explain-taxes-are-not-in-these = { $name }: os impostos não entram nestas contas ({ $why }); peça a um contador a estimativa do seu caso. { $regimes } { $citation }
taxes-explain-commerce-and-services-no-activity = comércio e serviços (a atividade não foi informada: o valor mais alto)
taxes-explain-mei-a-fixed-das-of = MEI ({ $assumed }): DAS fixo de { $das } por mês, mesmo sem faturamento { $fact }.
taxes-explain-is = ⚠️ { $das } é uma { $why } ({ $source }).
taxes-explain-is-s-value-the-next = ⚠️ { $das } é o valor de { $year }; o do ano seguinte ainda não foi publicado aqui (sai com o novo salário mínimo).
taxes-explain-the-plan-bills-a-year = O plano fatura { $yearly_revenue } no ano, { $excess } acima do limite de { $yearly } (até 20 %): paga { $rate } % sobre o excesso, { $e } uma vez no DAS de janeiro (aqui, { $brl } por mês), e sai do MEI no ano seguinte { $source }.
taxes-explain-the-plan-bills-a-year-2 = O plano fatura { $rbt12 } no ano, mais de 20 % acima do limite do MEI ({ $yearly }): o MEI é desenquadrado desde janeiro e paga como empresa do Simples Nacional { $source }.
taxes-explain-since-1-january-the-business = Desde 1º de janeiro de { $next } o negócio é ME no Simples Nacional: o faturamento registrado de { $year } ({ $revenue }) passou do limite do MEI ({ $limit }) (LC 123/2006 art. 18-A §7º III). O DAS agora é apurado todo mês no PGDAS-D. Se você continua MEI (parte da receita não era da atividade, por exemplo), diga na etapa Jurídico.
taxes-explain-the-plan-s-expected-12 = a receita de 12 meses prevista no plano
taxes-explain-the-revenue-recorded-for-the = a receita registrada dos últimos 12 meses
taxes-explain-the-average-of-the-recorded = { $n ->
        [one] o mês registrado
       *[other] a média dos { $n } meses registrados
    } × 12 (Res. CGSN 140/2018 art. 22)
taxes-explain-simples-nacional-annex-an-effective = Simples Nacional, Anexo { $annex }: alíquota efetiva de { $effective } % = ({ $rbt12 } × { $nominal } % − { $deduction }) ÷ { $rbt12 }, com { $revenue } { $source }.
taxes-explain-the-annex-comes-from-cnae = O anexo vem do CNAE { $cnae } ({ $name }, { $basis }) { $source }.
taxes-explain-without-the-cnae-annex-iii = Sem o CNAE, o Anexo III das ocupações de serviço permitidas ao MEI: informe o CNAE (etapa Jurídico) para confirmar.
taxes-explain-the-annex-comes-from-the = O anexo vem da atividade (comércio: I; indústria: II).
taxes-explain-fator-r-of-12-months = Fator R de { $r } % (folha de 12 meses ÷ receita de 12 meses; { $threshold } % ou mais: Anexo III, abaixo: Anexo V). A folha conta salários, pró-labore, 13º, terço de férias e FGTS ({ $payroll_source }).
taxes-explain-without-the-payroll-wages-and = Sem a folha (salários e pró-labore na etapa Financeiro), o Fator R não pode ser calculado: Anexo V, o mais caro.
taxes-explain-in-annex-iv-the-cpp = No Anexo IV a CPP (INSS patronal, { $rate } % da folha) é paga fora do DAS: { $cpp } por mês ({ $source }).
taxes-explain-in-annex-iv-the-cpp-2 = No Anexo IV a CPP (INSS patronal) é paga fora do DAS: informe salários e pró-labore para somá-la.
taxes-explain-iss-at-give-your-city = ISS de { $rate } % (informe a alíquota da sua cidade, de 2 % a 5 %, na etapa Jurídico)
taxes-explain-an-effective-icms-of = ICMS efetivo de { $rate } %
taxes-explain-icms-left-out-give-its = ICMS fora das contas: informe a alíquota efetiva depois dos créditos (etapa Jurídico)
taxes-explain-on-revenue-above-r-5 = {" "}Na receita acima de R$ 5 milhões por ano, a presunção é 10 % maior (LC 224/2025).
taxes-explain-pis-and-cofins-on-revenue = PIS { $pis } % e Cofins { $cofins } % sobre a receita;{" "}
taxes-explain-lucro-presumido-irpj-on-a = Lucro Presumido ({ $activity }): { $federal }IRPJ { $irpj } % sobre a presunção de { $presumption_irpj } % da receita, mais { $irpj_additional } % sobre o lucro presumido acima de { $additional_above_monthly } por mês; CSLL { $csll } % sobre a presunção de { $presumption_csll } %; { $local }.{ $lc224 } { $source }
taxes-explain-since-2027-pis-and-cofins = Desde 2027 PIS e Cofins acabaram: entram a CBS de { $cbs } % e o IBS de { $ibs } % sobre a receita sem o ISS e o ICMS, cobrados por fora do preço e destacados na nota — o cliente empresa toma o crédito; aqui eles contam nos impostos do mês, como se saíssem da sua margem, até que você os repasse ao preço { $source }.
taxes-explain-the-cbs-uses = ⚠️ A CBS usa uma { $premise } ({ $source }).
taxes-explain-with-the-reduction-of-regulated = Com a redução de { $regulated_reduction } % das profissões intelectuais regulamentadas (LC 214/2025 art. 127).
taxes-explain-if-yours-is-a-regulated = Se o seu serviço é de profissão intelectual regulamentada, fiscalizada por conselho (contador, advogado, arquiteto, engenheiro, administrador…), a CBS e o IBS têm { $regulated_reduction } % de redução (LC 214/2025 art. 127): diga na etapa Jurídico — não a supusemos.
taxes-explain-the-tax-is-not-in = { $name }: o imposto ainda não entra nas contas. Para serviços, o anexo do Simples (III, IV ou V) e a presunção dependem da atividade exata: informe o CNAE (por exemplo 9602-5/01, cabeleireiros) na etapa Jurídico, e a folha (salários e pró-labore) na etapa Financeiro.
taxes-explain-the-tax-is-not-in-2 = { $name }: o imposto ainda não entra nas contas. Comércio e serviços são tributados de formas diferentes: informe o CNAE da atividade principal na etapa Jurídico (e, se parte relevante da receita for da outra atividade, peça a um contador a divisão).
taxes-explain-to-move-from-annex-v = Para sair do Anexo V para o III: com { $extra_pro_labore } a mais de pró-labore por mês (mantidos nos 12 meses do Fator R), o Fator R chega a { $threshold } % e o DAS cai de { $das_v } para { $das_iii } por mês; o INSS do sócio sobre esse acréscimo ({ $inss } %, até o teto) é { $inss2 } — economia líquida de { $saving } por mês. O pró-labore não é custo novo: é lucro pago como remuneração (o IRPF do sócio sobre ele não está nesta conta) ({ $source }).
taxes-explain-reaching-annex-iii-by-the = Chegar ao Anexo III pelo Fator R pediria { $extra_pro_labore } a mais de pró-labore por mês, e o INSS sobre isso ({ $inss }) come a economia do DAS ({ $das_v } → { $das_iii }): não compensa hoje.
money-taxes-commerce = comércio
money-taxes-industry = indústria
money-taxes-services = serviços
money-taxes-commerce-and-services = comércio e serviços
money-taxes-das-on-the-excess-1 = DAS do excesso (1/12)
money-taxes-cpp-employer-inss = CPP (INSS patronal)
money-taxes-source = (fonte: { $source }, { $as_of })
taxes-presumido-irpj-additional = IRPJ (adicional)
money-checks-little-is-left-of-each = Sobra pouco de cada venda: a margem de contribuição é de { $contribution_margin } ({ $ratio } % do preço), abaixo de 10 %.
taxes-explain-why-lucro-real = dependem do lucro real, de créditos e da folha
taxes-explain-why-above-simples = a receita de 12 meses passa do teto do Simples (R$ 4,8 milhões)
money-checks-ceiling-computed = { $tolerated ->
    [true] As contas já incluem o imposto do excesso.
   *[false] As contas já tratam o negócio como a empresa do Simples Nacional que ele passa a ser.
}
money-reform-choice-half-of-year = { $half ->
    [1] 1º semestre de { $year }
   *[2] 2º semestre de { $year }
}
money-reform-choice-purchases-estimated = {" "}(estimadas pelos custos variáveis do plano; informe as suas compras de fornecedores que destacam CBS e IBS)
money-reform-choice-share-assumed = {" "}(suposição: metade das vendas para empresas — diga a sua parte)
