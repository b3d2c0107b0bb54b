//! The browser and system a request came from, read from its `User-Agent`, as a person recognises
//! them ("Chrome no Windows", "Safari no iPhone"): the question of a login by message names them,
//! so that the person can tell their own browser from someone else's. The header is the caller's
//! word, so this only ever describes; it never decides anything. Unknown parts are left out.

use crate::locale::Language;

/// What a `User-Agent` says of its browser and system; either may be unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Device {
    pub browser: Option<&'static str>,
    pub system: Option<&'static str>,
}

/// Longest header read: real ones are a few hundred characters.
const MAX_READ: usize = 512;

impl Device {
    /// Reads a `User-Agent` header. The order matters: Edge and Opera also say "Chrome", Chrome
    /// also says "Safari", and iPhones also say "Mac OS X".
    pub fn from_user_agent(header: &str) -> Self {
        let ua: String = header.chars().take(MAX_READ).collect();
        let has = |needle: &str| ua.contains(needle);
        let browser = if has("Edg/") || has("EdgA/") || has("EdgiOS/") {
            Some("Edge")
        } else if has("OPR/") || has("Opera") {
            Some("Opera")
        } else if has("SamsungBrowser/") {
            Some("Samsung Internet")
        } else if has("Firefox/") || has("FxiOS/") {
            Some("Firefox")
        } else if has("CriOS/") || has("Chrome/") || has("Chromium/") {
            Some("Chrome")
        } else if has("Safari/") && has("Version/") {
            Some("Safari")
        } else {
            None
        };
        let system = if has("iPhone") {
            Some("iPhone")
        } else if has("iPad") {
            Some("iPad")
        } else if has("Android") {
            Some("Android")
        } else if has("Windows") {
            Some("Windows")
        } else if has("CrOS") {
            Some("ChromeOS")
        } else if has("Macintosh") || has("Mac OS X") {
            Some("macOS")
        } else if has("Linux") {
            Some("Linux")
        } else {
            None
        };
        Self { browser, system }
    }

    /// How it is kept: `<browser>\t<system>`, each possibly empty.
    pub fn stored(&self) -> String {
        format!("{}\t{}", self.browser.unwrap_or_default(), self.system.unwrap_or_default())
    }

    /// Read back from [`stored`](Self::stored); only names this module knows come back.
    pub fn from_stored(stored: &str) -> Self {
        let (browser, system) = stored.split_once('\t').unwrap_or((stored, ""));
        let known = |name: &str, names: &[&'static str]| names.iter().copied().find(|n| *n == name);
        Self { browser: known(browser, &BROWSERS), system: known(system, &SYSTEMS) }
    }

    /// "um navegador Chrome no Windows" / "a Chrome browser on Windows"; "um navegador" / "a
    /// browser" when nothing is known.
    pub fn describe(&self, lang: Language) -> String {
        let browser = match self.browser {
            Some(browser) => say!(lang, "identity-device-named-browser", browser),
            None => say!(lang, "identity-device-a-browser"),
        };
        match self.system {
            Some(system) => say!(lang, "identity-device-browser-on", browser, system),
            None => browser,
        }
    }
}

const BROWSERS: [&str; 6] = ["Edge", "Opera", "Samsung Internet", "Firefox", "Chrome", "Safari"];
const SYSTEMS: [&str; 7] = ["iPhone", "iPad", "Android", "Windows", "ChromeOS", "macOS", "Linux"];

#[cfg(test)]
mod tests {
    use super::*;

    fn read(ua: &str) -> (Option<&'static str>, Option<&'static str>) {
        let device = Device::from_user_agent(ua);
        (device.browser, device.system)
    }

    #[test]
    fn the_common_browsers_are_named_with_their_system() {
        // Real User-Agent strings of each browser's current release.
        let cases = [
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
                (Some("Chrome"), Some("Windows")),
            ),
            (
                "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
                (Some("Edge"), Some("Windows")),
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
                (Some("Safari"), Some("iPhone")),
            ),
            (
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
                (Some("Safari"), Some("macOS")),
            ),
            (
                "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
                (Some("Samsung Internet"), Some("Android")),
            ),
            (
                "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
                (Some("Firefox"), Some("Linux")),
            ),
            (
                "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
                (Some("Chrome"), Some("iPhone")),
            ),
            ("curl/8.5.0", (None, None)),
            ("", (None, None)),
        ];
        for (ua, expected) in cases {
            assert_eq!(read(ua), expected, "{ua}");
        }
    }

    #[test]
    fn the_description_reads_naturally_in_both_languages_and_survives_storage() {
        let chrome = Device::from_user_agent(
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        );
        assert_eq!(chrome.describe(Language::PtBr), "um navegador Chrome no Windows");
        assert_eq!(chrome.describe(Language::En), "a Chrome browser on Windows");
        assert_eq!(Device::from_stored(&chrome.stored()), chrome);
        assert_eq!(Device::default().describe(Language::PtBr), "um navegador");
        assert_eq!(Device::from_stored("<script>\tEvil").describe(Language::En), "a browser");
    }
}
