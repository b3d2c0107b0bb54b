//! The nineteen personas of `make eval`: Brazilian small-business owners, each with the messages
//! they send and what each asks of the consultant (plan data to save, a figure the server
//! computes, a dated tax fact, a figure to question, words that call nobody, a month to record,
//! what to do and by when). Most talk today; those of the reform and of the MEI's ceiling talk on
//! the day their case is about (the server's `SOCIO_DEV_CLOCK`), one of them on two days of the
//! same database, either side of a new year.

use socio::locale::Language;

/// What a persona's message asks of the consultant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ask {
    /// Plan data: the fields it should be saved as.
    Saves(&'static str),
    /// A figure the server computes (break-even).
    Figure,
    /// A tax or legal value, which must come with its date.
    TaxFact,
    /// A figure the server questions: the reply must raise the analysis' warning (its code).
    Warns(&'static str),
    /// Words that describe the business, not a wish for a person: nobody is called.
    NoHandoff,
    /// What to charge: the reply must give the server's price (`fields`: the `price_product`
    /// arguments a model reads from the question), and the invoice's total when taxes go on top.
    Price,
    /// A month's real results (`fields`: the `record_month_results` arguments a model reads from
    /// the message): they must be recorded.
    Records,
    /// A MEI past the ceiling: the reply must say what to do and by when, in the server's words.
    Acts,
}

pub struct Turn {
    pub says: &'static str,
    pub ask: Ask,
    /// For `Saves`: the section's fields as JSON.
    pub fields: &'static str,
}

pub struct Persona {
    pub name: &'static str,
    pub phone: &'static str,
    pub language: Language,
    /// The day the persona talks on (a day in São Paulo, 09:00), None: today.
    pub on: Option<&'static str>,
    /// Months recorded before the first message (YYYY-MM, revenue, costs), as the owner recorded
    /// them during the year.
    pub recorded: &'static [(&'static str, f64, f64)],
    pub turns: &'static [Turn],
    /// The same owner on a later day, on the same database: the day and what they say then.
    pub later: Option<(&'static str, &'static [Turn])>,
}

macro_rules! save {
    ($says:literal, $section:literal, $fields:literal) => {
        Turn { says: $says, ask: Ask::Saves($section), fields: $fields }
    };
}
macro_rules! ask {
    ($says:literal, $ask:ident) => {
        Turn { says: $says, ask: Ask::$ask, fields: "" }
    };
}
macro_rules! price {
    ($says:literal, $arguments:literal) => {
        Turn { says: $says, ask: Ask::Price, fields: $arguments }
    };
}
macro_rules! records {
    ($says:literal, $arguments:literal) => {
        Turn { says: $says, ask: Ask::Records, fields: $arguments }
    };
}
macro_rules! warns {
    ($says:literal, $code:literal) => {
        Turn { says: $says, ask: Ask::Warns($code), fields: "" }
    };
}

pub const PERSONAS: &[Persona] = &[
    Persona {
        name: "Confeitaria (Ana, Campinas)",
        phone: "+5519990010001",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!(
                "Quero abrir uma confeitaria de bolos caseiros em Campinas",
                "idea",
                r#"{"businessIdea": "Confeitaria de bolos caseiros em Campinas"}"#
            ),
            save!(
                "Vou gastar R$ 30.000 para começar, com custos fixos de R$ 6.000 por mês",
                "finance",
                r#"{"startupCosts": 30000, "monthlyFixedCosts": 6000}"#
            ),
            save!(
                "Cada bolo sai por R$ 80 e custa R$ 30 para fazer; espero vender 200 por mês",
                "finance",
                r#"{"averageTicket": 80, "variableCostPerSale": 30, "expectedSalesPerMonth": 200}"#
            ),
            ask!("Qual é o meu ponto de equilíbrio?", Figure),
            ask!("Quanto eu pago de DAS se for MEI?", TaxFact),
        ],
    },
    Persona {
        name: "Manicure MEI (Bia, Recife)",
        phone: "+5581990010002",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!(
                "Sou manicure e quero atender em domicílio no Recife",
                "idea",
                r#"{"businessIdea": "Manicure em domicílio no Recife"}"#
            ),
            save!(
                "Meu atendimento custa R$ 50 e gasto R$ 10 de material; faço 120 por mês",
                "finance",
                r#"{"averageTicket": 50, "variableCostPerSale": 10, "expectedSalesPerMonth": 120}"#
            ),
            save!(
                "Gasto R$ 1.500 por mês fixo com transporte e celular",
                "finance",
                r#"{"monthlyFixedCosts": 1500}"#
            ),
            ask!("Quantos atendimentos preciso para empatar?", Figure),
            ask!("Qual é o limite de faturamento do MEI?", TaxFact),
        ],
    },
    Persona {
        name: "Oficina mecânica (Carlos, BH)",
        phone: "+5531990010003",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!(
                "Tenho uma oficina mecânica em Belo Horizonte e quero crescer",
                "idea",
                r#"{"businessIdea": "Oficina mecânica em Belo Horizonte", "stage": "running"}"#
            ),
            save!("Meus custos fixos são R$ 18.000 por mês", "finance", r#"{"monthlyFixedCosts": 18000}"#),
            save!(
                "O serviço médio é R$ 450, com R$ 200 de peças; faço 90 serviços por mês",
                "finance",
                r#"{"averageTicket": 450, "variableCostPerSale": 200, "expectedSalesPerMonth": 90}"#
            ),
            ask!("Estou acima do ponto de equilíbrio?", Figure),
            ask!("Posso ser MEI com dois funcionários?", TaxFact),
        ],
    },
    Persona {
        name: "Loja online (Dani, SP)",
        phone: "+5511990010004",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!(
                "Quero vender roupas de ginástica numa loja online",
                "idea",
                r#"{"businessIdea": "Loja online de roupas de ginástica"}"#
            ),
            save!(
                "Meus clientes são mulheres de 20 a 40 anos que treinam",
                "market",
                r#"{"targetCustomer": "Mulheres de 20 a 40 anos que treinam"}"#
            ),
            save!(
                "Cada peça sai por R$ 120 e me custa R$ 55; quero vender 300 por mês com R$ 9.000 de custo fixo",
                "finance",
                r#"{"averageTicket": 120, "variableCostPerSale": 55, "expectedSalesPerMonth": 300, "monthlyFixedCosts": 9000}"#
            ),
            ask!("Qual faturamento preciso para não ter prejuízo?", Figure),
            ask!("Como funciona o Simples Nacional para loja?", TaxFact),
        ],
    },
    Persona {
        name: "Food truck (Edu, Florianópolis)",
        phone: "+5548990010005",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!(
                "Vou abrir um food truck de tapioca na praia em Florianópolis",
                "idea",
                r#"{"businessIdea": "Food truck de tapioca em Florianópolis"}"#
            ),
            save!(
                "O investimento é R$ 90.000 e o capital de giro R$ 10.000",
                "finance",
                r#"{"startupCosts": 90000, "workingCapital": 10000}"#
            ),
            save!(
                "A tapioca custa R$ 25, gasto R$ 9 em cada, vendo 1.200 por mês e tenho R$ 12.000 de custo fixo",
                "finance",
                r#"{"averageTicket": 25, "variableCostPerSale": 9, "expectedSalesPerMonth": 1200, "monthlyFixedCosts": 12000}"#
            ),
            ask!("Em quantas vendas eu empato?", Figure),
            ask!("Preciso de alvará da vigilância sanitária?", TaxFact),
        ],
    },
    Persona {
        name: "Consultoria (Fábio, Porto Alegre)",
        phone: "+5551990010006",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!(
                "Quero abrir uma consultoria de RH para pequenas empresas",
                "idea",
                r#"{"businessIdea": "Consultoria de RH para pequenas empresas"}"#
            ),
            save!(
                "Cobro R$ 3.000 por projeto, com R$ 300 de custo, e faço 4 projetos por mês; meu fixo é R$ 4.000",
                "finance",
                r#"{"averageTicket": 3000, "variableCostPerSale": 300, "expectedSalesPerMonth": 4, "monthlyFixedCosts": 4000}"#
            ),
            save!("Quero abrir como SLU", "legal", r#"{"businessType": "slu"}"#),
            ask!("Quantos projetos preciso fechar para cobrir os custos?", Figure),
            ask!("O que é o Fator R?", TaxFact),
        ],
    },
    Persona {
        name: "Pet shop (Gabi, Salvador)",
        phone: "+5571990010007",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!(
                "Vou abrir um pet shop com banho e tosa em Salvador",
                "idea",
                r#"{"businessIdea": "Pet shop com banho e tosa em Salvador"}"#
            ),
            save!(
                "O ticket médio é R$ 70 com R$ 20 de custo, 600 atendimentos por mês",
                "finance",
                r#"{"averageTicket": 70, "variableCostPerSale": 20, "expectedSalesPerMonth": 600}"#
            ),
            save!(
                "O aluguel e a equipe custam R$ 21.000 por mês",
                "finance",
                r#"{"monthlyFixedCosts": 21000}"#
            ),
            ask!("Qual é o meu ponto de equilíbrio em faturamento?", Figure),
            ask!("Quanto custa o DAS do MEI de serviços?", TaxFact),
        ],
    },
    Persona {
        name: "Gym (Hugo, São Paulo, in English)",
        phone: "+5511990010008",
        language: Language::En,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!(
                "I want to open a small functional training gym in São Paulo",
                "idea",
                r#"{"businessIdea": "Small functional training gym in São Paulo"}"#
            ),
            save!(
                "The membership is R$ 180 a month, each member costs me R$ 30, and I expect 250 members",
                "finance",
                r#"{"averageTicket": 180, "variableCostPerSale": 30, "expectedSalesPerMonth": 250}"#
            ),
            save!("Rent and staff cost R$ 25,000 a month", "finance", r#"{"monthlyFixedCosts": 25000}"#),
            ask!("How many members do I need to break even?", Figure),
            ask!("What is the MEI revenue limit?", TaxFact),
        ],
    },
    Persona {
        name: "Padaria com atendente (Iara, Recife)",
        phone: "+5581990010009",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!("Tenho uma padaria no Recife", "idea", r#"{"businessIdea": "Padaria no Recife"}"#),
            save!(
                "Somos 4 pessoas: eu, um padeiro, um atendente e um entregador",
                "hr",
                r#"{"teamSize": 4}"#
            ),
            ask!("Queria que o atendente falasse com os clientes pelo WhatsApp", NoHandoff),
            save!(
                "Pão a R$ 18 o quilo, custa R$ 7; vendo 2.000 kg por mês; fixos de R$ 18.000",
                "finance",
                r#"{"averageTicket": 18, "variableCostPerSale": 7, "expectedSalesPerMonth": 2000, "monthlyFixedCosts": 18000}"#
            ),
            ask!("Qual é o meu ponto de equilíbrio?", Figure),
            ask!("Quanto é o DAS do MEI?", TaxFact),
        ],
    },
    Persona {
        name: "MEI de R$ 120 mil (Júlia, Goiânia)",
        phone: "+5562990010010",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!(
                "Sou MEI de comércio, vendo roupas em Goiânia",
                "legal",
                r#"{"businessType": "mei", "taxRegime": "simei", "activity": "commerce"}"#
            ),
            save!(
                "Cada peça sai por R$ 100, custa R$ 40, e quero vender 100 por mês; fixos de R$ 2.000",
                "finance",
                r#"{"averageTicket": 100, "variableCostPerSale": 40, "expectedSalesPerMonth": 100, "monthlyFixedCosts": 2000}"#
            ),
            warns!("Como estão meus números?", "mei_ceiling"),
            ask!("Qual é o meu ponto de equilíbrio?", Figure),
            ask!("Qual é o limite de faturamento do MEI?", TaxFact),
        ],
    },
    Persona {
        name: "Plano no prejuízo (Kátia, Manaus)",
        phone: "+5592990010011",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!("Quero vender açaí em Manaus", "idea", r#"{"businessIdea": "Açaí em Manaus"}"#),
            save!(
                "O copo sai por R$ 35 e custa R$ 900 para fazer, vendo 300 por mês; fixos de R$ 3.000",
                "finance",
                r#"{"averageTicket": 35, "variableCostPerSale": 900, "expectedSalesPerMonth": 300, "monthlyFixedCosts": 3000}"#
            ),
            warns!("O que você acha dos meus números?", "cost_above_price"),
            save!("Errei: o copo custa R$ 9", "finance", r#"{"variableCostPerSale": 9}"#),
            ask!("Qual é o meu ponto de equilíbrio?", Figure),
            ask!("Quanto pago de DAS como MEI?", TaxFact),
        ],
    },
    Persona {
        name: "Serviço no Simples com Fator R (Léo, Curitiba)",
        phone: "+5541990010012",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!(
                "Tenho uma agência de design em Curitiba, uma LTDA no Simples Nacional, só serviços",
                "legal",
                r#"{"businessType": "ltda", "taxRegime": "simples_nacional", "activity": "services"}"#
            ),
            save!(
                "Cobro R$ 3.000 por projeto, custa R$ 300, faço 10 por mês; fixos de R$ 12.000 e folha de R$ 9.000",
                "finance",
                r#"{"averageTicket": 3000, "variableCostPerSale": 300, "expectedSalesPerMonth": 10, "monthlyFixedCosts": 12000, "monthlyPayroll": 9000}"#
            ),
            ask!("Qual é o meu ponto de equilíbrio?", Figure),
            ask!("Como funciona o Fator R no Simples?", TaxFact),
        ],
    },
    Persona {
        name: "Consultoria no Lucro Presumido (Carla, São Paulo)",
        phone: "+5511990010013",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!(
                "Tenho uma consultoria em São Paulo, uma LTDA no Lucro Presumido, só serviços",
                "legal",
                r#"{"businessType": "ltda", "taxRegime": "lucro_presumido", "activity": "services"}"#
            ),
            save!(
                "Faturo R$ 30.000 por mês com um contrato; fixos de R$ 13.500",
                "finance",
                r#"{"averageTicket": 30000, "expectedSalesPerMonth": 1, "monthlyFixedCosts": 13500}"#
            ),
            ask!("Qual é o meu ponto de equilíbrio?", Figure),
            ask!("Que outros regimes existem além do Simples?", TaxFact),
        ],
    },
    Persona {
        name: "Salão de beleza no Simples (Dani, Belo Horizonte)",
        phone: "+5531990010014",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!(
                "Meu salão de beleza em BH é uma LTDA no Simples, CNAE 9602-5/01",
                "legal",
                r#"{"businessType": "ltda", "taxRegime": "simples_nacional", "activity": "services", "cnae": "9602501"}"#
            ),
            save!(
                "Atendo 250 clientes por mês a R$ 80, cada atendimento custa R$ 15; fixos de R$ 8.000",
                "finance",
                r#"{"averageTicket": 80, "variableCostPerSale": 15, "expectedSalesPerMonth": 250, "monthlyFixedCosts": 8000}"#
            ),
            ask!("Qual é o meu ponto de equilíbrio?", Figure),
            ask!("Quais são os anexos do Simples?", TaxFact),
        ],
    },
    Persona {
        name: "Software house com folha (Edu, Florianópolis)",
        phone: "+5548990010015",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!(
                "Tenho uma software house em Floripa, LTDA no Simples, CNAE 6201-5/01",
                "legal",
                r#"{"businessType": "ltda", "taxRegime": "simples_nacional", "activity": "services", "cnae": "6201501"}"#
            ),
            save!(
                "Faço 10 projetos de R$ 4.000 por mês; fixos de R$ 20.000, salários CLT de R$ 7.000 e pró-labore de R$ 3.000",
                "finance",
                r#"{"averageTicket": 4000, "expectedSalesPerMonth": 10, "monthlyFixedCosts": 20000, "monthlyWages": 7000, "monthlyProLabore": 3000}"#
            ),
            ask!("Qual é o meu ponto de equilíbrio?", Figure),
            ask!("O Fator R do Simples conta o pró-labore?", TaxFact),
        ],
    },
    Persona {
        name: "MEI de serviços acima do teto (Fábio, Salvador)",
        phone: "+5571990010016",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!(
                "Sou MEI, faço manutenção de ar-condicionado em Salvador",
                "legal",
                r#"{"businessType": "mei", "taxRegime": "simei", "activity": "services"}"#
            ),
            save!(
                "Cobro R$ 35 por visita, gasto R$ 9, faço 240 por mês; fixos de R$ 1.500",
                "finance",
                r#"{"averageTicket": 35, "variableCostPerSale": 9, "expectedSalesPerMonth": 240, "monthlyFixedCosts": 1500}"#
            ),
            warns!("Como estão meus números?", "mei_ceiling"),
            ask!("Qual é o meu ponto de equilíbrio?", Figure),
            ask!("O que acontece se o MEI passar do limite de faturamento?", TaxFact),
        ],
    },
    Persona {
        name: "Doceria MEI que precifica (Rita, Belo Horizonte)",
        phone: "+5531990010017",
        language: Language::PtBr,
        on: None,
        recorded: &[],
        later: None,
        turns: &[
            save!(
                "Sou MEI, vendo bolos e doces em Belo Horizonte",
                "legal",
                r#"{"businessType": "mei", "taxRegime": "simei", "activity": "commerce"}"#
            ),
            save!(
                "Vendo 150 bolos por mês a R$ 40, cada um custa R$ 18 de ingredientes; fixos de R$ 1.200",
                "finance",
                r#"{"averageTicket": 40, "variableCostPerSale": 18, "expectedSalesPerMonth": 150, "monthlyFixedCosts": 1200}"#
            ),
            ask!("Qual é o meu ponto de equilíbrio?", Figure),
            price!(
                "Quanto devo cobrar por um bolo de R$ 30 de custo, com 4% de cartão e 25% de margem?",
                r#"{"unitCost": 30, "cardFeePercent": 4, "targetMarginPercent": 25}"#
            ),
            ask!("Quanto o MEI paga de DAS por mês?", TaxFact),
        ],
    },
    Persona {
        name: "Consultoria no Lucro Presumido em 2027 (Helena, São Paulo)",
        phone: "+5511990010018",
        language: Language::PtBr,
        // The first business day of the reform's first year: PIS/Cofins gone, the CBS (a premise
        // until the Senate fixes the reference rate) and the IBS on top of the price (LC 214/2025
        // arts. 343–349, ADCT art. 126).
        on: Some("2027-01-05"),
        recorded: &[],
        turns: &[
            save!(
                "Tenho uma consultoria de gestão em São Paulo, LTDA no Lucro Presumido, só serviços; não é profissão regulamentada, ISS de 5%",
                "legal",
                r#"{"businessType": "ltda", "taxRegime": "lucro_presumido", "activity": "services", "profession": "not_regulated", "issRatePercent": 5}"#
            ),
            save!(
                "Faturo R$ 40.000 por mês em 8 projetos de R$ 5.000, cada um custa R$ 500; fixos de R$ 14.000",
                "finance",
                r#"{"averageTicket": 5000, "variableCostPerSale": 500, "expectedSalesPerMonth": 8, "monthlyFixedCosts": 14000}"#
            ),
            ask!("Qual é o meu ponto de equilíbrio agora em 2027?", Figure),
            price!(
                "Quanto devo cobrar por um diagnóstico que me custa R$ 300, com 25% de margem?",
                r#"{"unitCost": 300, "targetMarginPercent": 25}"#
            ),
            ask!("O que muda com a CBS e o IBS em 2027?", TaxFact),
        ],
        later: None,
    },
    Persona {
        name: "MEI que passou do teto em novembro (Joana, Recife)",
        phone: "+5581990010019",
        language: Language::PtBr,
        // R$ 7.000 a month from January to October and R$ 12.000 in November: R$ 82.000 in 2026,
        // over the R$ 81.000 limit in November; at the recorded months' pace R$ 89.454,55 for the
        // year, within the 20 % tolerance (R$ 97.200). Report leaving the MEI
        // by the last business day of December (LC 123/2006 art. 18-A §7º III; Res. CGSN 140/2018
        // art. 115); from 1 January an ME in the Simples Nacional, Annex I for commerce.
        on: Some("2026-12-10"),
        recorded: &[
            ("2026-01", 7000.0, 2800.0),
            ("2026-02", 7000.0, 2800.0),
            ("2026-03", 7000.0, 2800.0),
            ("2026-04", 7000.0, 2800.0),
            ("2026-05", 7000.0, 2800.0),
            ("2026-06", 7000.0, 2800.0),
            ("2026-07", 7000.0, 2800.0),
            ("2026-08", 7000.0, 2800.0),
            ("2026-09", 7000.0, 2800.0),
            ("2026-10", 7000.0, 2800.0),
        ],
        turns: &[
            save!(
                "Sou MEI, tenho uma loja de roupas em Recife",
                "legal",
                r#"{"businessType": "mei", "taxRegime": "simei", "activity": "commerce"}"#
            ),
            save!(
                "Vendo 50 peças por mês a R$ 150, cada uma me custa R$ 60; fixos de R$ 2.000",
                "finance",
                r#"{"averageTicket": 150, "variableCostPerSale": 60, "expectedSalesPerMonth": 50, "monthlyFixedCosts": 2000}"#
            ),
            records!(
                "Fechei novembro com R$ 12.000 de vendas e R$ 4.800 de custos, 80 peças",
                r#"{"month": "2026-11", "revenue": 12000, "costs": 4800, "salesCount": 80}"#
            ),
            ask!("Passei do limite do MEI? O que eu faço agora?", Acts),
            ask!("O que acontece se o MEI passar do limite de faturamento?", TaxFact),
        ],
        later: Some((
            "2027-01-05",
            &[
                ask!("Agora que virei ME, qual é o meu ponto de equilíbrio?", Figure),
                ask!("E o desenquadramento do MEI, ainda preciso fazer algo?", Acts),
                ask!("Como funciona o Simples Nacional para quem era MEI?", TaxFact),
            ],
        )),
    },
];
