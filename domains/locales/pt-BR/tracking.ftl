tracking-calendar-by-the-company-may-opt = até { $by } a empresa pode optar pelo Simples Nacional para { $value } (no Portal do Simples Nacional). Vale comparar com o seu contador o imposto de hoje com o do Simples no seu anexo.
tracking-calendar-the-mei-s-das-for = o DAS do MEI de { $month } vence em { $due_on }. Pague pelo app MEI ou no Portal do Simples Nacional (PGMEI), mesmo sem faturamento no mês.
tracking-calendar-s-pgdas-d-declaration-and = a apuração de { $month } no PGDAS-D e o DAS do Simples vencem em { $due_on }, mesmo que o mês tenha sido zerado.
tracking-calendar-by-you-choose-whether-the = até { $by } você escolhe se a empresa paga IBS e CBS dentro do DAS ou por fora (regime regular) no { $half }º semestre de { $year }. Por fora, seus clientes empresa aproveitam o crédito integral; dentro, tudo segue numa guia só. Decida com o seu contador.
tracking-calendar-the-mei-s-yearly-declaration = a declaração anual do MEI (DASN-SIMEI) sobre { $year } vence em { $due_on }. Entregue no Portal do Simples Nacional ou no app MEI, mesmo sem faturamento.
tracking-calendar-the-simples-nacional-defis-for = a DEFIS do Simples Nacional sobre { $year } vence em { $due_on }. Combine a entrega com o seu contador: atrasada, tem multa de 2 % ao mês, de no mínimo R$ 200 (desde 13/10/2025).
calendar-presumido-the-irpj-and-csll-of = o IRPJ e a CSLL do { $quarter }º trimestre de { $year } (Lucro Presumido) vencem em { $by }: DARF em quota única, ou em até três quotas mensais, a primeira nessa data. { $source }
calendar-presumido-s-pis-and-cofins-are = o PIS e a Cofins de { $month } vencem em { $by } (DARF; no dia 25, ou no dia útil antes).
calendar-presumido-s-cbs-and-ibs-they = a CBS e o IBS de { $month } { $year }: são apurados por mês, mas o prazo de pagamento depende de regulamento ainda não publicado — confirme a data com o seu contador e veja se as suas notas os destacam.
calendar-year-over-months-recorded-the-others-at = {" "}({ $recorded_months ->
        [one] com { $recorded_months } mês registrado
       *[other] com { $recorded_months } meses registrados
    }; os outros no mesmo ritmo)
calendar-year-over-report-leaving-the-mei-on = comunique já o desenquadramento do MEI no Portal do Simples Nacional — o prazo era { $report_by }, e a comunicação atrasada tem multa
calendar-year-over-report-leaving-the-mei-on-2 = comunique o desenquadramento do MEI no Portal do Simples Nacional até { $report_by }
calendar-year-over-your-revenue-was-over-the = Seu faturamento de { $year } foi de { $projected }{ $pace }, acima do limite do MEI de { $limit } (passou em { $month }), dentro da tolerância de 20 %. O que fazer: 1) { $report }; 2) entregue a DASN-SIMEI de { $year }: ela gera o DAS do excesso, { $amount } ({ $rate } % sobre { $brl }), que vence junto com o DAS de janeiro, em { $due }; 3) desde 1º de janeiro de { $value } você é ME no Simples Nacional: combine com um contador a emissão de notas e o PGDAS-D. { $source }
calendar-year-over-your-revenue-was-more-than = Seu faturamento de { $year } foi de { $projected }{ $pace }, mais de 20 % acima do limite do MEI de { $limit } (passou em { $month }): o desenquadramento volta a 1º de janeiro de { $year }. O que fazer: 1) { $report }; 2) com um contador, apure os tributos do Simples Nacional de cada mês desde janeiro de { $year } e pague-os com os acréscimos; 3) siga como ME no Simples Nacional. { $source }
calendar-year-over-the-months-recorded-in-add = Os meses registrados de { $year } somam { $revenue_so_far }, acima do limite do MEI de { $limit } desde { $month } (no ritmo deles, { $projected } no ano, dentro da tolerância de 20 %, até { $tolerance_limit }). O que fazer: 1) { $report }; 2) você segue MEI até 31 de dezembro e paga o DAS do excesso, cerca de { $amount } ({ $rate } % sobre { $brl }), gerado pela DASN-SIMEI e pago junto com o DAS de janeiro, em { $due }; 3) a partir de 1º de janeiro de { $value } você é ME no Simples Nacional: combine com um contador as notas e o PGDAS-D. Se o ano passar de { $tolerance_limit }, o desenquadramento volta a 1º de janeiro de { $year }. { $source }
calendar-year-over-the-months-recorded-in-add-2 = Os meses registrados de { $year } somam { $revenue_so_far }, acima do limite do MEI de { $limit } desde { $month }, e no ritmo deles o ano chega a { $projected } — mais de 20 % acima ({ $tolerance_limit }): o desenquadramento volta a 1º de janeiro de { $year }. O que fazer: 1) { $report }; 2) com um contador, apure os tributos do Simples Nacional de cada mês desde janeiro de { $year } e pague-os com os acréscimos; 3) siga como ME no Simples Nacional, no PGDAS-D. { $source }
tracking-ceiling-at-the-pace-of-the = no ritmo dos meses registrados, seu faturamento de { $year } chega a { $projected }, acima do limite do MEI de { $limit } — { $when }. { $tolerance } Vale conversar com um contador sobre virar ME no Simples Nacional.
tracking-results-the-biggest-gap-was-in = O maior desvio foi em { $month }: resultado de { $worst } contra { $result } previstos no plano ({ $gap } acima).
tracking-results-revenue-was-below-the-plan = a receita ficou { $brl } abaixo do previsto
tracking-results-costs-were-above-the-plan = os custos ficaram { $brl } acima do previsto
tracking-results-the-biggest-gap-was-in-2 = O maior desvio foi em { $month }: resultado de { $worst } contra { $result } previstos — { $cause }.
tracking-ceiling-crossing = { $passed ->
    [true] os meses registrados já passaram do limite em { $month }
   *[false] o limite seria ultrapassado em { $month }
}
