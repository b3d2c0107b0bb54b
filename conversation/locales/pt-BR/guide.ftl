consultant-guide-i-couldn-t-read-the = Não consegui ler o valor novo. Mande, por exemplo: "corrigir: custo fixo 18 mil".
consultant-guide-corrected =
    Corrigido ✅
    { $plan }
consultant-guide-done-i-ll-speak-english = Combinado! A partir de agora falo em português. 🇧🇷
consultant-guide-your-plan-your-dashboard =
    Seu plano: { $links }
    Seu painel: { $links2 }
consultant-guide-fine-let-s-move-on = Tudo bem, vamos em frente.
consultant-guide-to-edit-it = Para editar: { $links }
consultant-guide-all-right-another-time = Tudo bem, fica para depois.
consultant-guide-let-s-build-your-business = Vamos montar o seu plano de negócios, etapa por etapa. Etapa atual:
consultant-guide-i-couldn-t-read-that = Não consegui entender essa resposta. Pode tentar de novo? (ou diga "pular")
consultant-guide-i-read-cnae-if-that = Entendi o CNAE { $code } ({ $name }). Se não for esse, escreva "corrigir: cnae" e o código certo.
consultant-guide-got-it = Anotado! ✅
consultant-guide-step = ✅ Etapa
consultant-guide-complete = concluída!
consultant-guide-of-the-plan = do plano
consultant-guide-next-step = Próxima etapa:
guide-suggestions-no-problem-let-s-think =
    Sem problema, vamos pensar juntos — não anotei nada ainda. 💡 { $suggestion }
    {""}
    { $question }
guide-words-business-idea = Ideia de negócio
guide-words-market = Mercado
guide-words-finance = Finanças
guide-words-people = Pessoas
guide-words-legal-and-tax = Jurídico e impostos
guide-words-menu-progress-how-your-plan =
    📋 *Menu*
    • *progresso* — como está o seu plano
    • *plano* — o plano completo em PDF, aqui no WhatsApp
    • *resultados* — registrar o faturamento e os custos do mês passado
    • *painel* — links do plano e do painel
    • *pular* — pular a pergunta atual
    • *ajuda* — como funciono
    • *English* — switch to English
guide-words-i-ask-about-each-step = Eu faço perguntas sobre cada etapa do seu plano (ideia, mercado, finanças, marketing, pessoas e jurídico) e guardo as respostas no seu plano, que você vê no painel. Responda do seu jeito; valores podem ser como "R$ 1.500" ou "1,5 mil". Diga *menu* para ver os comandos. Lembrando: minha orientação é educacional e não substitui um contador ou advogado.
guide-words-your-plan-is-at = Seu plano está em
guide-words-congratulations-every-step-of-your =
    🎉 Parabéns! Todas as etapas do seu plano estão concluídas. Gere o plano completo em PDF no site: { $links }
    {""}
    Quer revisar algo? Diga *progresso* ou *menu*.
guide-words-summary = Resumo:
guide-words-tip-visit-or-follow-3 = 💡 Dica: visite ou siga 3 concorrentes e anote preços, atendimento e avaliações. A sua oportunidade está no que eles fazem mal.
guide-words-tip-start-with-one-or = 💡 Dica: comece com um ou dois canais e faça bem feito; peça avaliações e indicações aos primeiros clientes.
guide-words-with-the-regime-you-chose = 📊 Com o regime escolhido, os impostos ficam em { $taxes } por mês e o resultado mensal estimado, depois dos impostos, é { $result }.
guide-words-tip-keep-a-reserve-of = 💡 Dica: mantenha uma reserva de pelo menos 3 meses de custos fixos.
guide-words-your-break-even-point-is = Seu ponto de equilíbrio é de { $sales } vendas por mês ({ $revenue } de faturamento).
guide-words-careful-each-sale-costs-more = Atenção: o custo de cada venda é maior que o preço — assim não há ponto de equilíbrio.
guide-words-with-the-sales-you-expect = Com as vendas que você espera, o resultado mensal estimado, depois dos impostos ({ $taxes }), é { $result }.
guide-words-with-the-sales-you-expect-2 = Com as vendas que você espera, o resultado mensal estimado é { $result }, antes dos impostos: o regime vem na etapa Jurídico, e aí eu refaço a conta.
guide-words-tip-keep-a-reserve-of-2 = Dica: mantenha uma reserva de pelo menos 3 meses de custos fixos.
guide-words-marketing = Marketing
guide-field-business-idea = Ideia
guide-field-problem = Problema que resolve
guide-field-differentiator = Diferencial
guide-field-stage = Fase
guide-field-industry = Setor
guide-field-target-customer = Cliente ideal
guide-field-competitors = Concorrentes
guide-field-location = Local
guide-field-strengths = Forças
guide-field-weaknesses = Fraquezas
guide-field-opportunities = Oportunidades
guide-field-threats = Ameaças
guide-field-startup-costs = Investimento inicial
guide-field-working-capital = Capital de giro
guide-field-monthly-fixed-costs = Custos fixos por mês
guide-field-average-ticket = Ticket médio
guide-field-variable-cost-per-sale = Custo por venda
guide-field-expected-sales-per-month = Vendas por mês
guide-field-funding-source = De onde vem o dinheiro
guide-field-monthly-wages = Salários por mês
guide-field-monthly-pro-labore = Pró-labore por mês
guide-field-channels = Canais
guide-field-positioning = Posicionamento
guide-field-launch-plan = Lançamento
guide-field-team-size = Pessoas
guide-field-roles = Funções
guide-field-partners = Sócios
guide-field-business-type = Forma jurídica
guide-field-company-size = Porte
guide-field-tax-regime = Regime de impostos
guide-field-activity = Atividade
guide-field-cnae = CNAE
guide-field-cnpj-status = CNPJ
guide-field-profession = Profissão regulamentada
guide-field-licences = Licenças e alvarás
guide-suggestion-business-idea = Pense em três coisas: o que você vende, para quem e onde. Ex.: "padaria de bairro com pães de fermentação natural e café, em Campinas".
guide-suggestion-problem = Pense no que incomoda o seu cliente hoje: falta de opção perto de casa, preço alto, pouco tempo, qualidade ruim. Ex.: "no bairro não há pão fresco à tarde".
guide-suggestion-differentiator = Escolha uma coisa em que você pode ser o melhor da região: qualidade, atendimento, horário, entrega, preço ou uma especialidade. Ex.: "pão saindo do forno a cada duas horas e pedido pelo WhatsApp".
guide-suggestion-industry = É o ramo do que você vende: alimentação, beleza, moda, saúde, educação, serviços para casa, tecnologia…
guide-suggestion-target-customer = Descreva uma pessoa real que compraria de você: idade, onde mora ou trabalha, quanto pode gastar e o que mais valoriza. Ex.: "famílias do bairro, de 30 a 50 anos, que compram pão todo dia".
guide-suggestion-competitors = Liste 2 ou 3 lugares onde o seu cliente compra hoje (online também) e uma coisa boa e uma ruim de cada. Se ainda não sabe, procure no Google Maps e no Instagram, ou visite-os.
guide-suggestion-location = Pense em onde o seu cliente passa: perto de casa, do trabalho, de escolas ou de pontos de ônibus — e no aluguel que cabe no seu bolso. Começar em casa ou só online também vale. Ex.: "bairro Cambuí, em Campinas" ou "online, com entregas na cidade".
guide-suggestion-strengths = Forças são o que você já tem de bom: experiência no ramo, uma receita ou técnica, um ponto bem localizado, clientes que já conhecem você, bom atendimento.
guide-suggestion-weaknesses = Fraquezas são o que ainda falta por dentro: pouco dinheiro para começar, pouca experiência em gestão, equipe pequena, marca ainda desconhecida. Reconhecer ajuda a planejar.
guide-suggestion-opportunities = Oportunidades vêm de fora: um bairro crescendo, nenhum concorrente por perto, um hábito novo dos clientes, datas como as festas de fim de ano, vendas por aplicativo.
guide-suggestion-threats = Ameaças também vêm de fora: um concorrente grande chegando, custos subindo (matéria-prima, aluguel, energia), uma lei nova, a economia.
guide-suggestion-startup-costs = Some o que precisa comprar antes de abrir: equipamentos, reforma, primeiro estoque, móveis, abertura da empresa e a divulgação inicial. Peça dois orçamentos de cada item grande. Ex.: R$ 20.000.
guide-suggestion-working-capital = Uma regra prática é guardar de 2 a 3 meses dos custos fixos, para pagar as contas enquanto as vendas crescem. Ex.: com custos fixos de R$ 5.000, guarde de R$ 10.000 a R$ 15.000.
guide-suggestion-monthly-fixed-costs = São os gastos que vêm todo mês, vendendo ou não: aluguel, salários, contador, internet, energia, o seu pró-labore. Some cada um. Ex.: R$ 6.000.
guide-suggestion-average-ticket = É quanto, em média, cada cliente gasta por compra. Olhe os preços de concorrentes parecidos, ou pense no que um cliente típico leva. Ex.: R$ 25.
guide-suggestion-variable-cost-per-sale = É o que você gasta a cada venda: ingredientes ou mercadoria, embalagem, a taxa da maquininha ou do aplicativo. Ex.: "R$ 8" ou "35% do preço".
guide-suggestion-expected-sales-per-month = Comece pelo dia: quantos clientes você atende num dia normal? Depois diga quantos dias por semana abre. Ex.: "40 por dia, de terça a domingo".
guide-suggestion-funding-source = As fontes mais comuns: reserva própria, família, um sócio, empréstimo em banco ou cooperativa, microcrédito, Pronampe (para empresas já abertas).
guide-suggestion-channels = Comece por onde o seu cliente já está: WhatsApp e Instagram quase sempre; Google Meu Negócio para quem procura no mapa; iFood ou aplicativos para comida; a própria loja e as indicações.
guide-suggestion-positioning = Escolha um jeito de ser lembrado e use-o em tudo: "o pão mais fresco do bairro", "o atendimento que sabe o seu nome", "o mais em conta com qualidade".
guide-suggestion-launch-plan = Ideias para o primeiro mês: uma semana de degustação ou um desconto de inauguração, avisar amigos e vizinhos no WhatsApp, parcerias com comércios vizinhos, postar todo dia no Instagram.
guide-suggestion-team-size = Conte todo mundo que vai trabalhar, você e quem ajuda da família incluídos. Ex.: "eu e minha filha" são 2.
guide-suggestion-roles = Pense no que precisa ser feito todo dia: produzir, atender, vender, entregar, cuidar das compras e das contas — e quem faz cada coisa.
guide-suggestion-partners = Se vai ter sócio, diga quem é, o que faz e quanto põe de dinheiro; se não, responda "não, só eu".
guide-suggestion-monthly-pro-labore = Some os salários brutos da carteira de trabalho de um mês; o pró-labore é o que os sócios tiram como salário. Se ainda não há, responda 0.
guide-suggestion-profession = É regulamentada se a profissão tem conselho que a fiscaliza e o serviço é feito pelos sócios habilitados: contador (CRC), advogado (OAB), arquiteto (CAU), engenheiro (CREA), administrador (CRA), economista, químico, entre outras 18 (LC 214/2025 art. 127). Consultoria, marketing ou TI em geral não são.
guide-suggestion-any = Responda do jeito que souber hoje — dá para corrigir depois com "corrigir:".
guide-words-your-plan-is-complete-what-now = Seu plano está completo ✅. Posso calcular o preço de um produto, registrar os números de um mês ou enviar o plano em PDF — é só pedir (ou diga *menu*).
