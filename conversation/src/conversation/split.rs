//! WhatsApp takes at most 4,096 characters in a text message (Cloud API reference, "Text
//! messages": `text.body`, maximum 4096 characters). A longer answer goes as several messages,
//! cut where a reader would pause — between paragraphs, else lines, else sentences, else words —
//! and never in the middle of a word unless a single word is longer than a message.

/// The most characters one WhatsApp text message carries.
pub const MAX_CHARS: usize = 4096;

/// `text` as messages of at most `max` characters each, in order; nothing is lost but the
/// white space at the cuts.
pub fn into_messages(text: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut parts = Vec::new();
    let mut rest = text.trim();
    while rest.chars().count() > max {
        let cut = cut_point(rest, max);
        let (head, tail) = rest.split_at(cut);
        parts.push(head.trim_end().to_owned());
        rest = tail.trim_start();
    }
    if !rest.is_empty() {
        parts.push(rest.to_owned());
    }
    parts
}

/// The byte index to cut `text` at so that the head holds at most `max` characters, preferring
/// the latest paragraph break, then line break, sentence end and space within that head.
fn cut_point(text: &str, max: usize) -> usize {
    let limit = text.char_indices().nth(max).map(|(i, _)| i).unwrap_or(text.len());
    let head = &text[..limit];
    // A cut in the first third would make a stub of a message: look for a better one only past it.
    let floor = head.char_indices().nth(max / 3).map(|(i, _)| i).unwrap_or(0);
    let after = |needle: &str| head.rfind(needle).filter(|&i| i > floor).map(|i| i + needle.len());
    after("\n\n")
        .or_else(|| after("\n"))
        .or_else(|| [". ", "! ", "? ", "… ", ".\n"].iter().filter_map(|end| after(end)).max())
        .or_else(|| after(" "))
        .unwrap_or(limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_answer_is_one_message() {
        assert_eq!(into_messages("Olá, Ana!", MAX_CHARS), vec!["Olá, Ana!"]);
        assert!(into_messages("   ", MAX_CHARS).is_empty());
    }

    #[test]
    fn a_long_answer_is_cut_between_paragraphs_and_keeps_every_word() {
        let paragraph = "Seu ponto de equilíbrio é de 120 vendas por mês. ".repeat(30);
        let text = format!("{}\n\n{}\n\n{}", paragraph.trim(), paragraph.trim(), paragraph.trim());
        let parts = into_messages(&text, MAX_CHARS);
        assert_eq!(parts.len(), 2, "{:?}", parts.iter().map(|p| p.chars().count()).collect::<Vec<_>>());
        assert!(parts.iter().all(|p| p.chars().count() <= MAX_CHARS));
        assert!(parts[0].ends_with("mês."), "cut at a paragraph's end");
        let words = |s: &str| s.split_whitespace().map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(words(&parts.join(" ")), words(&text), "nothing lost");
    }

    #[test]
    fn without_paragraphs_it_cuts_after_a_sentence_then_a_word() {
        let text = "Primeira frase curta. Segunda frase um pouco maior que a primeira. Terceira.";
        let parts = into_messages(text, 40);
        assert_eq!(parts[0], "Primeira frase curta.");
        assert!(parts.iter().all(|p| p.chars().count() <= 40));
        let words = "palavra ".repeat(20);
        let parts = into_messages(&words, 30);
        assert!(parts.iter().all(|p| p.chars().count() <= 30 && p.split(' ').all(|w| w == "palavra")));
    }

    #[test]
    fn accents_count_as_one_character_and_a_giant_word_is_cut_anyway() {
        let text = "é".repeat(10);
        let parts = into_messages(&text, 4);
        assert_eq!(parts, vec!["éééé", "éééé", "éé"]);
    }
}
