consultant-answer-checks-i-read-is-that-right = Entendi { $what } — confere? Responda *sim* para salvar, ou mande o valor certo.
consultant-answer-checks-a-sale-price-of-is = { $cost } por venda, { $cost_is ->
        [equal] igual ao
       *[more] mais que o
    } preço de { $ticket } — é isso mesmo? Assim cada venda { $cost_is ->
        [equal] não deixa nada para pagar os custos fixos
       *[more] dá prejuízo
    }. Responda *sim* para salvar, ou mande o custo certo.
consultant-answer-checks-a-sale = { $brl } por venda
consultant-answer-checks-sales-a-month = { $value } vendas por mês
consultant-answer-checks-got-it-sales-a-day = Entendi { $per_day } vendas por dia. Quantos dias por semana você trabalha? (ex.: 5, ou "de terça a sábado")
consultant-asides-good-question-i-can-t = Boa pergunta! Essa eu não consigo responder com segurança aqui no roteiro, então não anotei nada. Se quiser, escreva *falar com uma pessoa* e alguém do time responde. Enquanto isso, sigo com o seu plano:
consultant-asides-by-your-plan-break-even = Pelo seu plano, o ponto de equilíbrio é de { $sales } vendas por mês ({ $revenue } de faturamento), já com os impostos.
consultant-asides-with-today-s-figures-there = Com os números de hoje não há ponto de equilíbrio: cada venda não cobre o próprio custo e os impostos.
consultant-asides-to-work-out-break-even = Para calcular o ponto de equilíbrio preciso do ticket médio e das vendas por mês — chegamos lá na etapa de finanças.
consultant-asides-no-a-salary-does-not = Não: salário não conta para o limite do MEI.
consultant-asides-by-your-plan-your-fator = Pelo seu plano, o Fator R hoje é { $now } % (abaixo de 28 %: Anexo V). { $lever }
consultant-engine-automatic-recap-no-model-earlier = Resumo automático (sem modelo): { $messages } mensagens anteriores. O plano guarda o que foi dito:
consultant-engine-english = Brazilian Portuguese
consultant-plan-delivery-business-plan = plano-de-negocios
consultant-plan-delivery-your-complete-business-plan-version = 📄 Seu plano de negócios completo (versão { $version }). Você também pode editá-lo no site.
consultant-plan-request-i-ll-put-your-complete = 📄 Vou gerar o seu plano de negócios completo em PDF e te mando aqui em instantes.
consultant-pricing-words-to-work-out-the-selling = Para calcular o preço de venda, me diga o custo de uma unidade e a margem que você quer — e, se tiver, a taxa do cartão e a comissão. Por exemplo: "custo R$ 30, cartão 4%, margem 25%". Os impostos e os custos fixos eu tiro do seu plano.
consultant-pricing-words-selling-price-of-each-sale =
    💰 Preço de venda: *{ $price }*.
    De cada venda: { $parts }.
    { $explanation }
consultant-pricing-words-want-this-price-as-your = Quer usar esse preço no plano como ticket médio? Escreva: corrigir: ticket R$ { $price }
consultant-replies-hi = Olá, { $name }!
consultant-replies-hi-2 = Olá!
consultant-replies-of-course = Claro, { $name }!
consultant-replies-of-course-2 = Claro!
consultant-replies-i-ve-called-a-person = { $greeting } Já chamei uma pessoa da nossa equipe: ela vai te responder aqui mesmo, nesta conversa, assim que possível. Enquanto isso, se quiser, pode continuar me contando sobre o seu negócio.
consultant-replies-i-m-s-cio-your =
    { $greeting } 👋 Eu sou o Sócio, seu consultor de negócios com IA.
    {""}
    Vou montar com você um plano de negócios completo — ideia, mercado, finanças, marketing, pessoas e questões legais — e te orientar em marketing, finanças, gestão e impostos, aqui mesmo no WhatsApp, 24 horas por dia.
    {""}
    Sou uma IA e falo só de negócios; se precisar, uma pessoa da nossa equipe pode entrar na conversa — é só pedir.
consultant-replies-to-get-started-choose-your =
    Para começar, escolha o seu plano: { $checkout }
    {""}
    O Pro custa { $monthly } por mês (ou { $yearly } por um ano) e tem garantia de 7 dias.
consultant-replies-the-free-plan-gives-you =
    { $greeting } No plano Gratuito você tem o modelo básico de plano de negócios e o painel no site, mas o consultor de IA aqui no WhatsApp é exclusivo do plano Pro.
    {""}
    Assine o Pro para conversar comigo quando quiser: { $checkout }
consultant-replies-i-got-your-voice-note = 🎧 Recebi seu áudio, mas por enquanto ainda não consigo ouvir mensagens de voz. Pode me escrever?
consultant-replies-i-got-your-file-and = 📎 Recebi seu arquivo e guardei aqui, mas por enquanto só consigo ler texto. Se puder, me conte por escrito.
consultant-replies-thanks-for-the-location-i = 📍 Obrigado pela localização, anotei aqui.
consultant-replies-i-got-your-message-but = Recebi sua mensagem, mas ainda não consigo ler esse tipo de conteúdo. Pode me escrever em texto?
consultant-results-interview-let-s-close-how-much = Vamos fechar { $month }. Quanto você faturou no mês (em reais)?
consultant-results-interview-and-how-much-went-out = E quanto saiu no mês, somando custos e despesas (em reais)?
consultant-results-interview-how-many-sales-or-clients = Quantas vendas (ou atendimentos) foram no mês?
consultant-results-interview-i-couldn-t-read-that = Não consegui ler esse número. Pode mandar só o valor? (ou diga "pular")
consultant-results-interview-recorded-revenue-costs-and-a = ✅ { $month } registrado: faturamento de { $revenue }, custos de { $costs } e resultado de { $recorded } ({ $sales_count } vendas).
consultant-results-interview-the-plan-expected-of-revenue = {" "}O plano previa { $revenue } de faturamento e { $result } de resultado por mês: diferença de { $revenue_gap } no faturamento e { $result_gap } no resultado.
consultant-scope-i-m-s-cio-an = Sou o Sócio, um consultor de negócios com IA: posso te ajudar com o seu negócio — plano, finanças, marketing, gestão e impostos —, mas não com outros assuntos. 😊
consultant-replies-subscribe-link =
    { $yearly ->
        [true] Aqui está o link para assinar o Pro anual ({ $price } por um ano, garantia de 7 dias): { $link }
       *[false] Aqui está o link para assinar o Pro mensal ({ $price } por mês, garantia de 7 dias): { $link }
    }

    Assim que o pagamento for confirmado, eu te aviso aqui e começamos o seu plano.
