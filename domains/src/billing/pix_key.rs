//! A Pix key as people type it, parsed into one of the five kinds the Banco Central's directory
//! (DICT) holds: CPF, CNPJ, e-mail, mobile number, random key (EVP). Formats from the DICT API
//! (<https://www.bcb.gov.br/estabilidadefinanceira/pix> → "API do DICT", `Key`): CPF `^[0-9]{11}$`,
//! CNPJ 14 characters, e-mail at most 77 characters, phone `^\+[1-9][0-9]{1,14}$` (Brazil: +55, area
//! code, number), EVP a UUID. CPF and CNPJ are checked by their check digits, the CNPJ in the
//! alphanumeric form too (IN RFB nº 2.229/2024, issued from July 2026: each character counts as its
//! ASCII code minus 48, the same weights), so a mistyped key is refused before anyone pays to it.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PixKeyKind {
    Cpf,
    Cnpj,
    Email,
    Phone,
    Random,
}

impl PixKeyKind {
    pub fn key(self) -> &'static str {
        match self {
            PixKeyKind::Cpf => "cpf",
            PixKeyKind::Cnpj => "cnpj",
            PixKeyKind::Email => "email",
            PixKeyKind::Phone => "phone",
            PixKeyKind::Random => "evp",
        }
    }
}

/// A key in the DICT's own form: CPF and CNPJ without punctuation, e-mail in lower case, the phone
/// as `+55…`, the random key in lower case with its hyphens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PixKey {
    kind: PixKeyKind,
    value: String,
}

impl PixKey {
    /// The key in `text`, however it was punctuated; `None` when it is none of the five kinds.
    pub fn parse(text: &str) -> Option<Self> {
        let text = text.trim().trim_end_matches(['.', '!']).trim();
        if text.is_empty() || text.chars().count() > 100 || text.chars().any(hidden) {
            return None;
        }
        if text.contains('@') {
            return email(text).map(|value| Self { kind: PixKeyKind::Email, value });
        }
        if let Some(value) = random(text) {
            return Some(Self { kind: PixKeyKind::Random, value });
        }
        let phone_like = text.starts_with('+') || text.contains('(');
        let plain: String = text.chars().filter(|c| c.is_ascii_alphanumeric()).collect();
        let plain = plain.to_ascii_uppercase();
        if !phone_like && plain.len() == 11 && cpf_valid(&plain) {
            return Some(Self { kind: PixKeyKind::Cpf, value: plain });
        }
        if !phone_like && plain.len() == 14 && cnpj_valid(&plain) {
            return Some(Self { kind: PixKeyKind::Cnpj, value: plain });
        }
        phone(text).map(|value| Self { kind: PixKeyKind::Phone, value })
    }

    pub fn kind(&self) -> PixKeyKind {
        self.kind
    }

    /// The key as the DICT holds it: what the admin types into the bank's app.
    pub fn value(&self) -> &str {
        &self.value
    }
}

/// The key as a person reads it: `CPF 529.982.247-25`, `celular +55 11 98765-4321`.
impl fmt::Display for PixKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = &self.value;
        match self.kind {
            PixKeyKind::Cpf => write!(f, "CPF {}.{}.{}-{}", &v[..3], &v[3..6], &v[6..9], &v[9..]),
            PixKeyKind::Cnpj => {
                write!(f, "CNPJ {}.{}.{}/{}-{}", &v[..2], &v[2..5], &v[5..8], &v[8..12], &v[12..])
            }
            PixKeyKind::Email | PixKeyKind::Random | PixKeyKind::Phone => f.write_str(v),
        }
    }
}

/// The DICT's e-mail key: at most 77 characters of ASCII, `^[a-z0-9.!#$&'*+\/=?^_`{|}~-]+@` and a
/// domain of labels `[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?` joined by dots (the API's `Key` pattern
/// for EMAIL; our domain needs two labels at least). No quotes, angle brackets or letters outside
/// ASCII: a key the directory cannot hold is none.
fn email(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let (local, domain) = lower.split_once('@')?;
    let local_fine = !local.is_empty()
        && local
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || ".!#$&'*+/=?^_`{|}~-".contains(c));
    let label_fine = |label: &str| {
        let bytes = label.as_bytes();
        (1..=63).contains(&bytes.len())
            && bytes.iter().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'-')
            && bytes[0] != b'-'
            && bytes[bytes.len() - 1] != b'-'
    };
    let labels: Vec<&str> = domain.split('.').collect();
    let fine = lower.len() <= 77 && local_fine && labels.len() >= 2 && labels.iter().all(|l| label_fine(l));
    fine.then_some(lower)
}

/// A character nobody sees: a control character, or a format one (zero-width spaces and joiners,
/// bidirectional overrides such as U+202E, the byte-order mark, the soft hyphen).
fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{00AD}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2064}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}')
}

fn random(text: &str) -> Option<String> {
    let lower = text.to_ascii_lowercase();
    let groups: Vec<&str> = lower.split('-').collect();
    let shape = [8, 4, 4, 4, 12];
    let fine = groups.len() == 5
        && groups.iter().zip(shape).all(|(g, n)| g.len() == n && g.chars().all(|c| c.is_ascii_hexdigit()));
    fine.then_some(lower)
}

/// A Brazilian mobile number: `+55`, one of ANATEL's area codes, nine digits starting with 9 (11
/// digits typed without the country code get it). Dots are a CPF's punctuation, never a number's.
fn phone(text: &str) -> Option<String> {
    if !text.chars().all(|c| c.is_ascii_digit() || " +()-".contains(c)) {
        return None;
    }
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    let national = match digits.len() {
        13 if digits.starts_with("55") => &digits[2..],
        11 if !text.trim_start().starts_with('+') => &digits[..],
        _ => return None,
    };
    (AREA_CODES.contains(&&national[..2]) && national.as_bytes()[2] == b'9').then(|| format!("+55{national}"))
}

/// Brazil's area codes (ANATEL, Plano de Numeração: "Códigos Nacionais",
/// <https://www.gov.br/anatel/pt-br/regulado/numeracao/codigos-nacionais>).
const AREA_CODES: &[&str] = &[
    "11", "12", "13", "14", "15", "16", "17", "18", "19", "21", "22", "24", "27", "28", "31", "32", "33",
    "34", "35", "37", "38", "41", "42", "43", "44", "45", "46", "47", "48", "49", "51", "53", "54", "55",
    "61", "62", "63", "64", "65", "66", "67", "68", "69", "71", "73", "74", "75", "77", "79", "81", "82",
    "83", "84", "85", "86", "87", "88", "89", "91", "92", "93", "94", "95", "96", "97", "98", "99",
];

/// CPF check digits (Receita Federal's rule): the first from the nine digits weighted 10 down to 2,
/// the second from the ten weighted 11 down to 2; each is (sum × 10) mod 11, 10 counting as 0.
fn cpf_valid(digits: &str) -> bool {
    let d: Vec<u32> = digits.chars().filter_map(|c| c.to_digit(10)).collect();
    if d.len() != 11 || d.iter().all(|&x| x == d[0]) {
        return false;
    }
    let check = |n: usize| {
        let sum: u32 = (0..n).map(|i| d[i] * (n as u32 + 1 - i as u32)).sum();
        (sum * 10) % 11 % 10
    };
    check(9) == d[9] && check(10) == d[10]
}

/// CNPJ check digits: weights 5,4,3,2,9,8,7,6,5,4,3,2 (then 6 before them for the second); the
/// remainder of the sum by 11 gives 0 below 2, else 11 minus it. Letters count as ASCII − 48.
fn cnpj_valid(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() != 14
        || !bytes[..12].iter().all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
        || !bytes[12..].iter().all(u8::is_ascii_digit)
        || bytes.iter().all(|&b| b == bytes[0])
    {
        return false;
    }
    let value: Vec<u32> = bytes.iter().map(|&b| u32::from(b) - 48).collect();
    let check = |n: usize| {
        let weights = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
        let sum: u32 = (0..n).map(|i| value[i] * weights[13 - n + i]).sum();
        let rest = sum % 11;
        if rest < 2 { 0 } else { 11 - rest }
    };
    check(12) == value[12] && check(13) == value[13]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 529.982.247-25, worked by hand: 5·10+2·9+9·8+9·7+8·6+2·5+2·4+4·3+7·2 = 295, 2950 mod 11 = 2;
    /// 5·11+2·10+9·9+9·8+8·7+2·6+2·5+4·4+7·3+2·2 = 347, 3470 mod 11 = 5.
    #[test]
    fn a_cpf_is_read_with_or_without_punctuation_and_checked_by_its_digits() {
        let key = PixKey::parse("529.982.247-25").unwrap();
        assert_eq!((key.kind(), key.value()), (PixKeyKind::Cpf, "52998224725"));
        assert_eq!(key.to_string(), "CPF 529.982.247-25");
        assert_eq!(PixKey::parse("52998224725"), Some(key));
        assert_eq!(PixKey::parse("529.982.247-26"), None);
        assert_eq!(PixKey::parse("111.111.111-11"), None);
    }

    /// 11.222.333/0001-81: 1·5+1·4+2·3+2·2+2·9+3·8+3·7+3·6+0+0+0+1·2 = 102, 102 mod 11 = 3 → 8;
    /// with 8 and the weights from 6: 1·6+1·5+2·4+2·3+2·2+3·9+3·8+3·7+0+0+0+1·3+8·2 = 120, 120 mod 11
    /// = 10 → 1. 12.ABC.345/01DE-35 is the Receita Federal's alphanumeric example (A = 17, B = 18 …).
    #[test]
    fn a_cnpj_is_checked_numeric_or_alphanumeric() {
        let key = PixKey::parse("11.222.333/0001-81").unwrap();
        assert_eq!((key.kind(), key.value()), (PixKeyKind::Cnpj, "11222333000181"));
        assert_eq!(key.to_string(), "CNPJ 11.222.333/0001-81");
        assert_eq!(PixKey::parse("12.ABC.345/01DE-35").map(|k| k.kind()), Some(PixKeyKind::Cnpj));
        assert_eq!(PixKey::parse("11.222.333/0001-82"), None);
    }

    #[test]
    fn a_mobile_number_becomes_the_plus_55_form() {
        for typed in ["(11) 98765-4321", "+55 11 98765-4321", "+5511987654321"] {
            let key = PixKey::parse(typed).unwrap();
            assert_eq!((key.kind(), key.value()), (PixKeyKind::Phone, "+5511987654321"), "{typed}");
        }
        // Eleven bare digits that fail the CPF check read as a mobile number.
        assert_eq!(PixKey::parse("11987654321").map(|k| k.kind()), Some(PixKeyKind::Phone));
        assert_eq!(PixKey::parse("(11) 3456-7890"), None, "a landline");
        assert_eq!(PixKey::parse("(52) 98765-4321"), None, "no such area code");
    }

    #[test]
    fn an_email_and_a_random_key_are_kept_in_lower_case() {
        assert_eq!(PixKey::parse(" Ana.Lima@Gmail.com ").unwrap().value(), "ana.lima@gmail.com");
        let evp = PixKey::parse("B6295EE1-F054-47D1-9E90-EE57B74F60D9").unwrap();
        assert_eq!((evp.kind(), evp.value()), (PixKeyKind::Random, "b6295ee1-f054-47d1-9e90-ee57b74f60d9"));
    }

    #[test]
    fn words_are_not_a_key() {
        for text in ["Oi, tudo bem?", "minha chave é o cpf", "", "ana@", "12345"] {
            assert_eq!(PixKey::parse(text), None, "{text}");
        }
    }

    #[test]
    fn a_key_the_directory_cannot_hold_is_none() {
        for text in [
            "\"><img/src=x>@evil.com",
            "ana\u{202E}moc.liame@evil.com",
            "ana\u{200B}@gmail.com",
            "аna@gmail.com", // a Cyrillic а
            "ana@gmаil.com",
            "ana@-gmail.com",
            "ana@gmail",
            "ana lima@gmail.com",
            "529.982.247-25\u{202E}",
            "\u{FEFF}52998224725",
        ] {
            assert_eq!(PixKey::parse(text), None, "{text:?}");
        }
        for text in ["ana+socio@gmail.com", "o'neil@sub.example.com.br", "a_b-c@x-y.com"] {
            assert!(PixKey::parse(text).is_some(), "{text}");
        }
    }
}
