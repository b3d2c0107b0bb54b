//! What Sócio is for. Meta's WhatsApp Business Solution terms (in force since 15 January 2026)
//! bar services whose primary function is a general-purpose AI assistant; task-specific business
//! assistants remain allowed. So the consultant is a business consultant: a request that is plainly
//! about something else — a poem, a joke, homework, code, translations, the news, general
//! knowledge — gets one friendly sentence and the conversation goes back to the person's business.
//! The model is told the same in the default prompt; this is the offline guide's side.

use crate::{identity::search::fold, locale::Language};

/// Phrases that ask for something a business consultant does not do (folded: lower case, no
/// accents). A word alone is not enough where it could be about the business ("receita" is
/// revenue, "música" may be what a bar plays): each phrase is a request.
const OFF_TOPIC: &[&str] = &[
    // Writing for fun
    "escreva um poema",
    "escreve um poema",
    "faz um poema",
    "faca um poema",
    "me faz uma poesia",
    "escreva uma poesia",
    "conta uma piada",
    "conte uma piada",
    "me conta uma piada",
    "conta piada",
    "letra de musica",
    "escreva uma musica",
    "escreve uma musica",
    "escreva uma historia",
    "escreve uma historia",
    "conta uma historia",
    "write a poem",
    "write me a poem",
    "tell me a joke",
    "tell a joke",
    "write a song",
    "song lyrics",
    "write a story",
    "tell me a story",
    // School
    "licao de casa",
    "dever de casa",
    "tarefa da escola",
    "trabalho da escola",
    "trabalho da faculdade",
    "redacao do enem",
    "minha prova",
    "homework",
    "my essay",
    "school assignment",
    // Code
    "escreva um codigo",
    "escreve um codigo",
    "codigo em python",
    "codigo em javascript",
    "programa em python",
    "write code",
    "python script",
    "javascript code",
    "fix my code",
    // Translation
    "traduza para",
    "traduz para",
    "traduza isso",
    "traduz isso",
    "translate this",
    "translate to",
    // News, sport, general knowledge, fortune
    "quem ganhou o jogo",
    "resultado do jogo",
    "placar do jogo",
    "previsao do tempo",
    "vai chover",
    "horoscopo",
    "meu signo",
    "capital da",
    "capital do",
    "quem descobriu",
    "quem foi o presidente",
    "who won the game",
    "weather forecast",
    "my horoscope",
    "capital of",
    "who discovered",
];

/// Whether the text asks for something outside a business consultant's work.
pub fn off_topic(text: &str) -> bool {
    let folded = fold(text);
    OFF_TOPIC.iter().any(|phrase| folded.contains(phrase))
}

/// The one friendly sentence that declines and brings the person back to their business.
pub fn decline(lang: Language) -> String {
    say!(lang, "consultant-scope-i-m-s-cio-an")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_for_something_other_than_the_business_are_recognised() {
        for text in [
            "Escreve um poema de amor pra minha namorada",
            "me conta uma piada",
            "Pode fazer minha lição de casa de matemática?",
            "Qual a capital da França?",
            "Write a poem about cats",
            "traduza para o inglês: bom dia",
            "quem ganhou o jogo ontem?",
        ] {
            assert!(off_topic(text), "{text}");
        }
    }

    #[test]
    fn business_questions_are_not_off_topic_even_with_the_same_nouns() {
        for text in [
            "Minha receita mensal é de 20 mil",
            "Quero abrir um bar com música ao vivo",
            "Vendo bolos e doces, a receita de brigadeiro é minha",
            "Quanto pago de DAS por mês?",
            "Quero montar uma escola de programação",
            "Minha loja vende camisas de time de futebol",
            "O código do produto no iFood é 123",
        ] {
            assert!(!off_topic(text), "{text}");
        }
    }
}
