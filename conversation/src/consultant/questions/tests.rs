//! The interview's questions: a few per step, every tap read back as its answer, answers read
//! into field values.

use super::*;

fn question(field: &str) -> &'static Question {
    QUESTIONS.iter().find(|q| q.field == field).unwrap()
}

#[test]
fn every_step_has_a_few_focused_questions() {
    for step in Step::ALL {
        // Those asked of everyone; a few more only where they decide something (the CNAE, the payroll).
        // The market step holds the SWOT's four quadrants, each asked.
        let n = QUESTIONS.iter().filter(|q| q.step == step && q.when.is_none()).count();
        assert!((3..=8).contains(&n), "{step:?} has {n}");
    }
    let swot: Vec<_> = QUESTIONS.iter().filter(|q| q.step == Step::Market).map(|q| q.field).collect();
    for quadrant in ["strengths", "weaknesses", "opportunities", "threats"] {
        assert!(swot.contains(&quadrant), "the SWOT's {quadrant} is asked");
    }
}

#[test]
fn every_tap_reads_back_as_its_answer_in_both_languages() {
    let mut closed = 0;
    for question in QUESTIONS {
        for lang in [Language::PtBr, Language::En] {
            for choice in question.choices(lang) {
                let expected = choice.id.split_once(':').unwrap().1;
                let read = question.read(&choice.title).unwrap();
                assert_eq!(read[question.field], json!(expected), "{}", choice.title);
                closed += 1;
            }
        }
    }
    assert_eq!(
        closed, 54,
        "stage, legal form, size, regime, activity, CNPJ and profession, in two languages"
    );
}

#[test]
fn answers_become_field_values() {
    assert_eq!(question("startupCosts").read("uns R$ 20.000"), Some(json!({"startupCosts": 20000.0})));
    assert_eq!(
        question("variableCostPerSale").read("30%"),
        Some(json!({"variableCostPercent": 30.0, "variableCostPerSale": null}))
    );
    assert_eq!(
        question("channels").read("Instagram e iFood"),
        Some(json!({"channels": ["Instagram", "iFood"]}))
    );
    assert_eq!(
        question("businessType").read("Acho que MEI"),
        Some(json!({"businessType": "mei", "taxRegime": "simei", "companySize": "me"})),
        "a MEI's regime is the SIMEI, its size ME"
    );
    assert_eq!(
        question("businessType").read("vai ser uma ME"),
        Some(json!({"companySize": "me"})),
        "a size is not a legal form: kept as the size"
    );
    assert_eq!(question("businessType").read("empresário individual"), Some(json!({"businessType": "ei"})));
    assert_eq!(question("companySize").read("acho que EPP"), Some(json!({"companySize": "epp"})));
    assert_eq!(question("companySize").read("microempresa"), Some(json!({"companySize": "me"})));
    assert_eq!(question("activity").read("fabrico e vendo bolos"), Some(json!({"activity": "industry"})));
    assert_eq!(question("activity").read("Manicure, só serviços"), Some(json!({"activity": "services"})));
    assert_eq!(question("taxRegime").read("simples"), Some(json!({"taxRegime": "simples_nacional"})));
    assert_eq!(question("cnpjStatus").read("ainda não"), Some(json!({"cnpjStatus": "none"})));
    assert_eq!(
        question("variableCostPerSale").read("R$ 6 de material, mais 3% da maquininha"),
        Some(json!({"variableCostPerSale": 6.0, "variableCostPercent": 3.0}))
    );
    let sales = question("expectedSalesPerMonth");
    assert_eq!(
        sales.read("6 clientes por dia, de terça a sábado"),
        Some(json!({"expectedSalesPerMonth": 130}))
    );
    assert_eq!(sales.read("uns 30 por semana"), Some(json!({"expectedSalesPerMonth": 130})));
    assert_eq!(sales.read("6 por dia"), Some(json!({"_perDay": 6.0})), "the days worked are asked");
    assert_eq!(sales.read("800"), Some(json!({"expectedSalesPerMonth": 800})));
    assert_eq!(question("stage").read("estou planejando"), Some(json!({"stage": "planning"})));
    assert_eq!(question("startupCosts").read("não sei ainda"), None);
}

#[test]
fn a_service_business_in_the_simples_or_presumido_is_asked_its_cnae_and_words_find_one() {
    let question = QUESTIONS.iter().find(|q| q.field == "cnae").expect("the CNAE question");
    assert!(question.applies(&json!({"taxRegime": "simples_nacional", "activity": "services"})));
    assert!(question.applies(&json!({"taxRegime": "lucro_presumido", "activity": "commerce_and_services"})));
    assert!(
        !question.applies(&json!({"taxRegime": "simples_nacional", "activity": "commerce"})),
        "commerce is Annex I"
    );
    assert!(
        !question.applies(&json!({"businessType": "mei", "taxRegime": "simei", "activity": "services"})),
        "a MEI's DAS"
    );
    assert_eq!(question.read("9602-5/01"), Some(json!({"cnae": "9602501"})));
    assert_eq!(question.read("Tenho um salão de beleza"), Some(json!({"cnae": "9602501"})));
    assert_eq!(question.read("desenvolvimento de software sob encomenda"), Some(json!({"cnae": "6201501"})));
    assert_eq!(
        question.read("consultoria de TI"),
        Some(json!({"cnae": "6204000"})),
        "the narrower words first"
    );
    assert_eq!(question.read("faço de tudo um pouco"), None, "asked again, or skipped");
}

#[test]
fn the_payroll_is_asked_in_the_legal_step_when_the_fator_r_or_annex_iv_decides_the_tax() {
    let wages = question("monthlyWages");
    assert_eq!((wages.step, wages.saves_in), (Step::Legal, Step::Finance));
    assert!(wages.applies(&json!({"taxRegime": "simples_nacional", "cnae": "6201501"})), "the Fator R");
    assert!(wages.applies(&json!({"taxRegime": "simples_nacional", "cnae": "8121400"})), "Annex IV's CPP");
    assert!(!wages.applies(&json!({"taxRegime": "simples_nacional", "cnae": "9602501"})), "natively III");
    assert!(!wages.applies(&json!({"taxRegime": "lucro_presumido", "cnae": "6201501"})));
    assert_eq!(wages.read("7 mil"), Some(json!({"monthlyWages": 7000.0})));
    assert_eq!(question("monthlyProLabore").read("R$ 3.000"), Some(json!({"monthlyProLabore": 3000.0})));
}

#[test]
fn a_presumido_service_is_asked_whether_it_is_a_regulated_profession_and_a_doubt_is_not_stored() {
    // LC 214/2025 art. 127: 30 % less CBS and IBS — asked, never assumed.
    let asked = question("profession");
    assert!(asked.applies(&json!({"taxRegime": "lucro_presumido", "activity": "services"})));
    assert!(!asked.applies(&json!({"taxRegime": "simples_nacional", "activity": "services"})));
    assert!(!asked.applies(&json!({"taxRegime": "lucro_presumido", "activity": "commerce"})));
    assert_eq!(asked.read("Sim, sou contadora"), Some(json!({"profession": "regulated"})));
    assert_eq!(asked.read("não, é consultoria de marketing"), Some(json!({"profession": "not_regulated"})));
    assert_eq!(asked.read("não sei"), None, "a doubt is explained, never saved as a no");
}
