//! What admins search people by: the folded name, both spellings of the number and the WhatsApp
//! username.

use super::phone::PhoneNumber;

/// Lower case without accents: "João Ávila" → "joao avila".
pub fn fold(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'á' | 'à' | 'â' | 'ã' | 'ä' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'í' | 'ì' | 'î' | 'ï' => 'i',
            'ó' | 'ò' | 'ô' | 'õ' | 'ö' => 'o',
            'ú' | 'ù' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            'ñ' => 'n',
            other => other,
        })
        .collect()
}

/// What searches match: the folded name, the number's digits in both spellings of a Brazilian
/// mobile (with and without its ninth digit), and the folded username (`@bia.doces`).
pub fn search_key(name: &str, phone: Option<&PhoneNumber>, username: Option<&str>) -> String {
    let mut key = fold(name);
    if let Some(phone) = phone {
        key.push(' ');
        key.push_str(phone.digits());
        if let Some(other) = phone.other_spelling() {
            key.push(' ');
            key.push_str(other.digits());
        }
    }
    if let Some(username) = username {
        key.push(' ');
        key.push_str(&fold(username));
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_ignores_accents_and_case() {
        assert_eq!(fold("João ÁVILA Conceição"), "joao avila conceicao");
        let ana = PhoneNumber::parse("+5511987654321").unwrap();
        assert_eq!(search_key("Ana Lima", Some(&ana), None), "ana lima 5511987654321 551187654321");
        let landline = PhoneNumber::parse("+551134567890").unwrap();
        assert_eq!(search_key("Padaria", Some(&landline), None), "padaria 551134567890");
        assert_eq!(search_key("Bia", None, Some("@Bia.Doces")), "bia @bia.doces");
    }
}
