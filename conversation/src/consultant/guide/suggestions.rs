//! What the guide says to a doubt ("não sei", "o que você sugere?") instead of an answer: a
//! suggestion for the question it asked — how to think about it, with an example —, then the
//! question again. Nothing is saved: a doubt is never an answer.

use crate::{identity::search::fold, locale::Language};

use super::super::questions::{Answer, Question};

/// Whether the text is a doubt rather than an answer: short words of not knowing ("não sei",
/// "sei lá", "not sure"), or asking for a suggestion anywhere in it ("o que você sugere para uma
/// padaria pequena?").
pub(super) fn is_doubt(text: &str) -> bool {
    let folded = fold(text);
    const ASKING: &[&str] = &[
        "o que voce sugere",
        "o que sugere",
        "voce sugere",
        "o que voce acha",
        "alguma sugestao",
        "uma sugestao",
        "me sugere",
        "me da uma ideia",
        "me ajuda",
        "me ajude",
        "what do you suggest",
        "what would you suggest",
        "any suggestion",
        "what do you think",
        "help me",
    ];
    const NOT_KNOWING: &[&str] = &[
        "nao sei",
        "sei la",
        "nao faco ideia",
        "nao tenho ideia",
        "nao tenho certeza",
        "nao pensei",
        "ainda nao pensei",
        "nao entendi",
        "i don't know",
        "i dont know",
        "not sure",
        "no idea",
        "haven't thought",
    ];
    let short = folded.split_whitespace().count() <= 8;
    ASKING.iter().any(|p| folded.contains(p)) || (short && NOT_KNOWING.iter().any(|p| folded.contains(p)))
}

/// Whether a doubt is a real answer to this question: where "não sei" is one of its answers (the
/// legal form, size and regime not decided yet; licences not known).
pub(super) fn doubt_is_an_answer(question: &Question) -> bool {
    matches!(
        question.answer,
        Answer::Stage
            | Answer::BusinessType
            | Answer::CompanySize
            | Answer::TaxRegime
            | Answer::Activity
            | Answer::CnpjStatus
            | Answer::Cnae
    ) || question.field == "licences"
}

/// The suggestion for a question, then the question again.
pub(super) fn suggest(question: &Question, lang: Language) -> String {
    let (pt, en) = suggestion(question.field);
    lang.choose(
        format!(
            "Sem problema, vamos pensar juntos — não anotei nada ainda. 💡 {pt}\n\n{}",
            question.text(lang)
        ),
        format!(
            "No problem, let's think it through — I haven't noted anything yet. 💡 {en}\n\n{}",
            question.text(lang)
        ),
    )
}

fn suggestion(field: &str) -> (&'static str, &'static str) {
    match field {
        "businessIdea" => (
            "Pense em três coisas: o que você vende, para quem e onde. Ex.: \"padaria de bairro com pães de fermentação natural e café, em Campinas\".",
            "Think of three things: what you sell, to whom and where. E.g. \"a neighbourhood bakery with sourdough bread and coffee, in Campinas\".",
        ),
        "problem" => (
            "Pense no que incomoda o seu cliente hoje: falta de opção perto de casa, preço alto, pouco tempo, qualidade ruim. Ex.: \"no bairro não há pão fresco à tarde\".",
            "Think of what bothers your customers today: no option nearby, high prices, little time, poor quality. E.g. \"there is no fresh bread in the neighbourhood in the afternoon\".",
        ),
        "differentiator" => (
            "Escolha uma coisa em que você pode ser o melhor da região: qualidade, atendimento, horário, entrega, preço ou uma especialidade. Ex.: \"pão saindo do forno a cada duas horas e pedido pelo WhatsApp\".",
            "Pick one thing you can be the best at around you: quality, service, opening hours, delivery, price or a speciality. E.g. \"bread out of the oven every two hours and orders on WhatsApp\".",
        ),
        "industry" => (
            "É o ramo do que você vende: alimentação, beleza, moda, saúde, educação, serviços para casa, tecnologia…",
            "It is the line of what you sell: food, beauty, fashion, health, education, home services, technology…",
        ),
        "targetCustomer" => (
            "Descreva uma pessoa real que compraria de você: idade, onde mora ou trabalha, quanto pode gastar e o que mais valoriza. Ex.: \"famílias do bairro, de 30 a 50 anos, que compram pão todo dia\".",
            "Describe a real person who would buy from you: age, where they live or work, what they can spend and what they value most. E.g. \"local families, 30 to 50, who buy bread every day\".",
        ),
        "competitors" => (
            "Liste 2 ou 3 lugares onde o seu cliente compra hoje (online também) e uma coisa boa e uma ruim de cada. Se ainda não sabe, procure no Google Maps e no Instagram, ou visite-os.",
            "List 2 or 3 places where your customers buy today (online too) and one good and one bad thing about each. If you don't know yet, look them up on Google Maps and Instagram, or visit them.",
        ),
        "location" => (
            "Pense em onde o seu cliente passa: perto de casa, do trabalho, de escolas ou de pontos de ônibus — e no aluguel que cabe no seu bolso. Começar em casa ou só online também vale. Ex.: \"bairro Cambuí, em Campinas\" ou \"online, com entregas na cidade\".",
            "Think of where your customers pass by: near home, work, schools or bus stops — and of the rent you can afford. Starting from home or online only counts too. E.g. \"Cambuí, in Campinas\" or \"online, delivering in the city\".",
        ),
        "strengths" => (
            "Forças são o que você já tem de bom: experiência no ramo, uma receita ou técnica, um ponto bem localizado, clientes que já conhecem você, bom atendimento.",
            "Strengths are what you already have going for you: experience in the trade, a recipe or technique, a good spot, customers who already know you, good service.",
        ),
        "weaknesses" => (
            "Fraquezas são o que ainda falta por dentro: pouco dinheiro para começar, pouca experiência em gestão, equipe pequena, marca ainda desconhecida. Reconhecer ajuda a planejar.",
            "Weaknesses are what is still missing inside: little money to start, little management experience, a small team, an unknown brand. Naming them helps you plan.",
        ),
        "opportunities" => (
            "Oportunidades vêm de fora: um bairro crescendo, nenhum concorrente por perto, um hábito novo dos clientes, datas como as festas de fim de ano, vendas por aplicativo.",
            "Opportunities come from outside: a growing neighbourhood, no competitor nearby, a new customer habit, seasons like the year-end holidays, selling through apps.",
        ),
        "threats" => (
            "Ameaças também vêm de fora: um concorrente grande chegando, custos subindo (matéria-prima, aluguel, energia), uma lei nova, a economia.",
            "Threats come from outside too: a big competitor arriving, rising costs (materials, rent, energy), a new law, the economy.",
        ),
        "startupCosts" => (
            "Some o que precisa comprar antes de abrir: equipamentos, reforma, primeiro estoque, móveis, abertura da empresa e a divulgação inicial. Peça dois orçamentos de cada item grande. Ex.: R$ 20.000.",
            "Add up what you must buy before opening: equipment, fit-out, first stock, furniture, registering the business and the first promotion. Get two quotes for each big item. E.g. R$ 20,000.",
        ),
        "workingCapital" => (
            "Uma regra prática é guardar de 2 a 3 meses dos custos fixos, para pagar as contas enquanto as vendas crescem. Ex.: com custos fixos de R$ 5.000, guarde de R$ 10.000 a R$ 15.000.",
            "A rule of thumb is to keep 2 to 3 months of fixed costs, to pay the bills while sales grow. E.g. with fixed costs of R$ 5,000, keep R$ 10,000 to R$ 15,000.",
        ),
        "monthlyFixedCosts" => (
            "São os gastos que vêm todo mês, vendendo ou não: aluguel, salários, contador, internet, energia, o seu pró-labore. Some cada um. Ex.: R$ 6.000.",
            "They are the costs that come every month, sales or not: rent, salaries, accountant, internet, power, your own pay. Add each one. E.g. R$ 6,000.",
        ),
        "averageTicket" => (
            "É quanto, em média, cada cliente gasta por compra. Olhe os preços de concorrentes parecidos, ou pense no que um cliente típico leva. Ex.: R$ 25.",
            "It is what each customer spends per purchase on average. Look at similar competitors' prices, or think of what a typical customer buys. E.g. R$ 25.",
        ),
        "variableCostPerSale" => (
            "É o que você gasta a cada venda: ingredientes ou mercadoria, embalagem, a taxa da maquininha ou do aplicativo. Ex.: \"R$ 8\" ou \"35% do preço\".",
            "It is what each sale costs you: ingredients or goods, packaging, the card machine's or the app's fee. E.g. \"R$ 8\" or \"35% of the price\".",
        ),
        "expectedSalesPerMonth" => (
            "Comece pelo dia: quantos clientes você atende num dia normal? Depois diga quantos dias por semana abre. Ex.: \"40 por dia, de terça a domingo\".",
            "Start with a day: how many customers do you serve on a normal day? Then say how many days a week you open. E.g. \"40 a day, Tuesday to Sunday\".",
        ),
        "fundingSource" => (
            "As fontes mais comuns: reserva própria, família, um sócio, empréstimo em banco ou cooperativa, microcrédito, Pronampe (para empresas já abertas).",
            "The usual sources: your savings, family, a partner, a loan from a bank or credit union, microcredit, Pronampe (for businesses already registered).",
        ),
        "channels" => (
            "Comece por onde o seu cliente já está: WhatsApp e Instagram quase sempre; Google Meu Negócio para quem procura no mapa; iFood ou aplicativos para comida; a própria loja e as indicações.",
            "Start where your customers already are: WhatsApp and Instagram nearly always; Google Business Profile for people searching the map; iFood or apps for food; your own shop and referrals.",
        ),
        "positioning" => (
            "Escolha um jeito de ser lembrado e use-o em tudo: \"o pão mais fresco do bairro\", \"o atendimento que sabe o seu nome\", \"o mais em conta com qualidade\".",
            "Pick one way to be remembered and use it everywhere: \"the freshest bread in the neighbourhood\", \"the service that knows your name\", \"the best value for quality\".",
        ),
        "launchPlan" => (
            "Ideias para o primeiro mês: uma semana de degustação ou um desconto de inauguração, avisar amigos e vizinhos no WhatsApp, parcerias com comércios vizinhos, postar todo dia no Instagram.",
            "Ideas for the first month: a tasting week or an opening discount, telling friends and neighbours on WhatsApp, partnering with nearby shops, posting daily on Instagram.",
        ),
        "teamSize" => (
            "Conte todo mundo que vai trabalhar, você e quem ajuda da família incluídos. Ex.: \"eu e minha filha\" são 2.",
            "Count everyone who will work, you and family helpers included. E.g. \"me and my daughter\" is 2.",
        ),
        "roles" => (
            "Pense no que precisa ser feito todo dia: produzir, atender, vender, entregar, cuidar das compras e das contas — e quem faz cada coisa.",
            "Think of what must be done every day: producing, serving, selling, delivering, buying and bookkeeping — and who does each.",
        ),
        "partners" => (
            "Se vai ter sócio, diga quem é, o que faz e quanto põe de dinheiro; se não, responda \"não, só eu\".",
            "If you will have a partner, say who, what they do and how much money they put in; if not, answer \"no, just me\".",
        ),
        "monthlyWages" | "monthlyProLabore" => (
            "Some os salários brutos da carteira de trabalho de um mês; o pró-labore é o que os sócios tiram como salário. Se ainda não há, responda 0.",
            "Add a month's gross CLT wages; the pró-labore is what the owners take as pay. If there is none yet, answer 0.",
        ),
        "profession" => (
            "É regulamentada se a profissão tem conselho que a fiscaliza e o serviço é feito pelos sócios habilitados: contador (CRC), advogado (OAB), arquiteto (CAU), engenheiro (CREA), administrador (CRA), economista, químico, entre outras 18 (LC 214/2025 art. 127). Consultoria, marketing ou TI em geral não são.",
            "It is regulated if a council supervises the profession and the partners holding the qualification do the work: accountant (CRC), lawyer (OAB), architect (CAU), engineer (CREA), administrator (CRA), economist, chemist and others, 18 in all (LC 214/2025 art. 127). Consulting, marketing or IT in general are not.",
        ),
        _ => (
            "Responda do jeito que souber hoje — dá para corrigir depois com \"corrigir:\".",
            "Answer as best you can today — you can correct it later with \"correct:\".",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::consultant::questions::QUESTIONS;

    #[test]
    fn doubts_and_requests_for_a_suggestion_are_not_answers() {
        for doubt in [
            "Não sei bem; o que você sugere para uma padaria pequena?",
            "não sei",
            "sei lá",
            "Ainda não pensei nisso",
            "what do you suggest?",
            "not sure",
        ] {
            assert!(is_doubt(doubt), "{doubt}");
        }
        for answer in [
            "Perto da escola do bairro, no centro de Campinas",
            "Tem duas padarias grandes, mas não sei o nome delas e elas abrem tarde e têm fila todo dia",
            "R$ 20 mil",
        ] {
            assert!(!is_doubt(answer), "{answer}");
        }
    }

    #[test]
    fn every_open_question_has_its_own_suggestion_in_both_languages() {
        let generic = suggestion("?");
        for question in QUESTIONS.iter().filter(|q| !doubt_is_an_answer(q)) {
            assert_ne!(suggestion(question.field), generic, "{}", question.field);
        }
    }
}
