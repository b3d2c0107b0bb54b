//! The complete plan as a document: generated from the sections (stored once per change, the
//! last ten kept, refused in a flood), exported as Markdown and as a PDF a reader can copy from,
//! and the same after an edit as the plan is now.

use reqwest::Method;
use serde_json::json;
use sqlx::Row;

use crate::{
    auth::ANA,
    helpers::{TestDatabase, spawn_app},
    on_both_engines,
    plan::{get, logged_in},
};

async fn the_complete_plan_is_generated_and_exported_as_markdown_and_a_readable_pdf(db: TestDatabase) {
    let (app, token) = logged_in(db).await;
    let finance = json!({"financeData": {"startupCosts": 50000, "workingCapital": 10000, "monthlyFixedCosts": 8000,
        "averageTicket": 25, "variableCostPerSale": 10, "expectedSalesPerMonth": 1000}, "completed": true});
    app.call(Method::PUT, "/api/business-plan/finance", finance, Some(&token)).await;
    let idea = json!({"ideaData": {"businessIdea": "Padaria de fermentação natural em São José", "stage": "running"}});
    app.call(Method::PUT, "/api/business-plan/idea", idea, Some(&token)).await;
    let legal = json!({"legalData": {"cnpjStatus": "in_progress", "activity": "commerce_and_services"}});
    assert_eq!(app.call(Method::PUT, "/api/business-plan/legal", legal, Some(&token)).await.0, 200);
    let swot = json!({"marketData": {"strengths": "Pão de fermentação natural", "threats": "Uma rede grande no bairro"}});
    assert_eq!(app.call(Method::PUT, "/api/business-plan/market", swot, Some(&token)).await.0, 200);

    let (status, body) = app.call(Method::POST, "/api/business-plan/generate", json!({}), Some(&token)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["message"], "Plano de negócios gerado com sucesso");
    let analysis = &body["data"]["businessPlan"]["financeAnalysis"];
    assert_eq!(
        (analysis["contributionMargin"].clone(), analysis["monthlyResult"].clone()),
        (json!(15), json!(7000))
    );
    assert_eq!(analysis["cashFlow"].as_array().unwrap().len(), 12);
    assert_eq!(
        (analysis["profitabilityPercent"].clone(), analysis["scenarios"][0]["kind"].clone()),
        (json!(28), json!("pessimistic"))
    );
    assert_eq!(
        analysis["scenarios"][2]["monthlyResult"],
        json!(10000),
        "sales 20% above: 1,200 × R$ 15 − R$ 8,000"
    );
    let markdown = body["data"]["document"]["markdown"].as_str().unwrap();
    assert!(
        markdown.contains("| Lucratividade (resultado ÷ receita) | 28,0 % |"),
        "viability indicators: {markdown}"
    );
    assert!(
        markdown.contains("| Pessimista | 800 | R$\u{a0}20.000,00 | R$\u{a0}4.000,00 | 15,0 meses |"),
        "scenarios: {markdown}"
    );
    assert_eq!(body["data"]["document"]["version"], 1);
    assert!(markdown.contains("## 1. Sumário executivo"));
    // Closed answers in words, never their stored codes.
    assert!(markdown.contains("Já está funcionando") && markdown.contains("Em abertura"), "{markdown}");
    assert!(markdown.contains("Comércio e serviços"), "{markdown}");
    assert!(!markdown.contains("running") && !markdown.contains("in progress"), "{markdown}");
    assert!(
        markdown.contains("| (-) Impostos | R$\u{a0}0,00 |")
            && markdown.contains("regime tributário não foi escolhido"),
        "the tax line, said plainly: {markdown}"
    );
    assert!(markdown.contains("Padaria de fermentação natural em São José"));
    assert!(markdown.contains("R$\u{a0}13.333,33"), "break-even revenue computed: {markdown}");
    assert!(markdown.contains("| 12 | R$\u{a0}7.000,00 | R$\u{a0}24.000,00 |"), "the 12-month projection");
    assert!(markdown.contains("ainda não foi preenchida"), "missing parts are named, not invented");
    assert!(markdown.contains("Análise SWOT (forças, fraquezas, oportunidades e ameaças)"), "{markdown}");
    assert!(markdown.contains("| Forças | Pão de fermentação natural |"), "{markdown}");
    assert!(
        markdown.contains("| Fraquezas | ainda não preenchido |"),
        "what is missing is named: {markdown}"
    );

    let (_, again) =
        app.call(Method::POST, "/api/business-plan/generate", json!({"language": "en"}), Some(&token)).await;
    assert_eq!(again["data"]["document"]["version"], 2);
    assert!(again["data"]["document"]["markdown"].as_str().unwrap().contains("## 6. Financial plan"));

    let (status, md) = get(&app, "/api/business-plan/export?format=markdown", &token).await;
    assert_eq!(status, 200);
    assert_eq!(md["data"]["contentType"], "text/markdown; charset=utf-8");

    let (status, pdf) = get(&app, "/api/business-plan/export?format=pdf", &token).await;
    assert_eq!(status, 200);
    assert_eq!(pdf["data"]["fileName"], "plano-de-negocios-v2.pdf");
    use base64::Engine as _;
    let bytes =
        base64::engine::general_purpose::STANDARD.decode(pdf["data"]["content"].as_str().unwrap()).unwrap();
    assert!(bytes.starts_with(b"%PDF-"));
    let text = pdf_text(&bytes);
    assert!(text.contains("São José"), "accents survive into the PDF's text: {text}");
    assert!(text.contains("Financial plan"));
}
on_both_engines!(the_complete_plan_is_generated_and_exported_as_markdown_and_a_readable_pdf);

/// The PDF's text, as a reader would copy it (Debian's poppler-utils).
pub(crate) fn pdf_text(pdf: &[u8]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plan.pdf");
    std::fs::write(&path, pdf).unwrap();
    let output = std::process::Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext (apt-get install poppler-utils) reads the PDF");
    assert!(output.status.success());
    String::from_utf8(output.stdout).unwrap()
}

/// The plan's document written as the next version, through the plan's domain (as the model's
/// generation does: every call a new version).
async fn generate_document(
    app: &crate::helpers::TestApp,
    user_id: &str,
) -> (socio::plan::store::Plan, socio::plan::store::Document) {
    let plans = socio::plan::Plans::new(app.db.clone(), socio::plan::events::PlanEvents::default());
    let user = socio::identity::users::Users::new(app.db.clone()).find(user_id).await.unwrap().unwrap();
    socio::plan::document::generate(&plans, &user, socio::locale::Language::PtBr, None).await.unwrap()
}

async fn a_dashboard_read_leaves_the_generated_document_behind_and_a_plan_read_brings_it(db: TestDatabase) {
    let (app, _) = logged_in(db).await;
    let user_id = app.user_column(ANA, "id").await;
    let plans = socio::plan::Plans::new(app.db.clone(), socio::plan::events::PlanEvents::default());
    let (_, document) = generate_document(&app, &user_id).await;

    let full = plans.find(&user_id).await.unwrap().unwrap();
    assert_eq!(full.document.as_ref().map(|d| &d.markdown), Some(&document.markdown));
    let outline = plans.outline(&user_id).await.unwrap();
    assert_eq!(outline.document, None, "the dashboard does not carry the document's Markdown and model");
    assert_eq!((outline.id, outline.sections), (full.id, full.sections), "the same plan otherwise");
}
on_both_engines!(a_dashboard_read_leaves_the_generated_document_behind_and_a_plan_read_brings_it);

async fn generating_an_unchanged_plan_again_stores_nothing_new_and_a_flood_is_refused(db: TestDatabase) {
    let (app, token) = logged_in(db).await;
    // Generations are counted in fixed windows of a minute: all ten below in one of them.
    app.at_a_minute_s_start();
    let generate = || app.call(Method::POST, "/api/business-plan/generate", json!({}), Some(&token));
    assert_eq!(generate().await.1["data"]["document"]["version"], 1);
    assert_eq!(generate().await.1["data"]["document"]["version"], 1, "nothing changed: the same document");
    let idea = json!({"ideaData": {"businessIdea": "Padaria de fermentação natural"}});
    app.call(Method::PUT, "/api/business-plan/idea", idea, Some(&token)).await;
    assert_eq!(generate().await.1["data"]["document"]["version"], 2, "a change makes a new version");
    assert_eq!(app.count("select count(*) as n from plan_documents").await, 2);

    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(generate().await.0);
    }
    assert_eq!(statuses[..7], [200; 7], "ten a minute: {statuses:?}");
    let (status, body) = generate().await;
    assert_eq!((status, statuses[7]), (429, 429), "{body}");
}
on_both_engines!(generating_an_unchanged_plan_again_stores_nothing_new_and_a_flood_is_refused);

async fn only_the_last_ten_generated_documents_are_kept(db: TestDatabase) {
    let (app, token) = logged_in(db).await;
    app.call(Method::POST, "/api/business-plan/generate", json!({}), Some(&token)).await;
    let user_id = app.user_column(ANA, "id").await;
    for _ in 0..12 {
        generate_document(&app, &user_id).await;
    }
    let versions: Vec<i32> = sqlx::query("select version from plan_documents order by version")
        .fetch_all(app.db.pool())
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(versions, (4..=13).collect::<Vec<_>>());
}
on_both_engines!(only_the_last_ten_generated_documents_are_kept);

async fn a_download_after_an_edit_is_the_plan_as_it_is_now(db: TestDatabase) {
    let app = spawn_app(db).await;
    let phone = "+5511955550001";
    app.register(phone).await;
    let (token, _) = app.login(phone).await;
    let idea = |text: &str| json!({"ideaData": {"businessIdea": text}});
    let (status, _) =
        app.call(Method::PUT, "/api/business-plan/idea", idea("Padaria de bairro"), Some(&token)).await;
    assert_eq!(status, 200);
    let (_, made) = app.call(Method::POST, "/api/business-plan/generate", json!({}), Some(&token)).await;
    assert_eq!(made["data"]["document"]["version"], 1);
    assert_eq!(made["data"]["document"]["current"], true);

    // An edit after it: the builder is told the version is out of date...
    let (status, _) = app
        .call(Method::PUT, "/api/business-plan/idea", idea("Padaria e café de bairro"), Some(&token))
        .await;
    assert_eq!(status, 200);
    let (_, plan) = get(&app, "/api/business-plan", &token).await;
    assert_eq!(plan["data"]["businessPlan"]["document"]["version"], 1, "{plan}");
    assert_eq!(plan["data"]["businessPlan"]["document"]["current"], false, "{plan}");

    // ...and the download is a new version with the edit, made once.
    for _ in 0..2 {
        let (status, md) = get(&app, "/api/business-plan/export?format=markdown", &token).await;
        assert_eq!(status, 200);
        assert_eq!(md["data"]["fileName"], "plano-de-negocios-v2.md");
        use base64::Engine as _;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(md["data"]["content"].as_str().unwrap())
            .unwrap();
        assert!(String::from_utf8(bytes).unwrap().contains("Padaria e café de bairro"));
    }
    let (_, plan) = get(&app, "/api/business-plan", &token).await;
    assert_eq!(plan["data"]["businessPlan"]["document"]["current"], true, "{plan}");
}
on_both_engines!(a_download_after_an_edit_is_the_plan_as_it_is_now);

/// The words of a PDF with their boxes (`pdftotext -bbox`): (word, xMin, yMin, xMax).
fn pdf_words(pdf: &[u8]) -> Vec<(String, f64, f64, f64)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("plan.pdf");
    std::fs::write(&path, pdf).unwrap();
    let output = std::process::Command::new("pdftotext")
        .args(["-bbox"])
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext (apt-get install poppler-utils) reads the PDF");
    assert!(output.status.success());
    let html = String::from_utf8(output.stdout).unwrap();
    let number = |tag: &str, name: &str| -> f64 {
        let at = tag.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        tag[at..].split('"').next().unwrap().parse().unwrap()
    };
    html.split("<word ")
        .skip(1)
        .map(|chunk| {
            let (tag, rest) = chunk.split_once('>').unwrap();
            let word = rest.split("</word>").next().unwrap().to_owned();
            (word, number(tag, "xMin"), number(tag, "yMin"), number(tag, "xMax"))
        })
        .collect()
}

async fn the_pdf_s_swot_table_reads_label_then_text_wrapped_from_the_left(db: TestDatabase) {
    let (app, token) = logged_in(db).await;
    let strengths = "Fermentação natural de quarenta e oito horas, farinha orgânica de moinho local, forno a lenha, receitas de família e um atendimento que chama cada cliente pelo nome, coisa que nenhuma rede da cidade faz";
    let market = json!({"marketData": {"industry": "Padaria", "strengths": strengths, "weaknesses": "Capital de giro curto", "opportunities": "Bairro sem padaria artesanal", "threats": "Rede grande a duas quadras"}});
    let (status, _) = app.call(Method::PUT, "/api/business-plan/market", market, Some(&token)).await;
    assert_eq!(status, 200);
    let (status, pdf) = get(&app, "/api/business-plan/export?format=pdf", &token).await;
    assert_eq!(status, 200);
    use base64::Engine as _;
    let bytes =
        base64::engine::general_purpose::STANDARD.decode(pdf["data"]["content"].as_str().unwrap()).unwrap();
    let words = pdf_words(&bytes);
    let find =
        |w: &str| words.iter().find(|(word, ..)| word == w).unwrap_or_else(|| panic!("{w} in the PDF"));
    let (_, _, label_y, label_x_max) = find("Forças").clone();
    let (_, _, next_y, _) = find("Fraquezas").clone();
    // The strengths cell: every word on the label's row and below it, until the next row's label.
    let cell: Vec<_> = words
        .iter()
        .filter(|(word, _, y, _)| *y >= label_y - 1.0 && *y < next_y - 1.0 && word != "Forças")
        .collect();
    assert!(
        cell.iter().any(|(w, ..)| w == "Fermentação") && cell.iter().any(|(w, ..)| w == "faz"),
        "{cell:?}"
    );
    let mut lines: std::collections::BTreeMap<i64, f64> = Default::default();
    for (_, x, y, _) in &cell {
        let left = lines.entry(y.round() as i64).or_insert(f64::MAX);
        *left = left.min(*x);
    }
    assert!(lines.len() >= 2, "the long text wraps inside its column: {lines:?}");
    let starts: Vec<f64> = lines.values().copied().collect();
    assert!(
        starts[0] > label_x_max,
        "the text starts after the label, never over it: {starts:?} vs {label_x_max}"
    );
    assert!(
        starts.iter().all(|x| (x - starts[0]).abs() < 1.0),
        "every line of the text starts at the same left edge: {starts:?}"
    );
}
on_both_engines!(the_pdf_s_swot_table_reads_label_then_text_wrapped_from_the_left);
