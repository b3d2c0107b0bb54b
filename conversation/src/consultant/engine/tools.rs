//! The model's tools: their definitions (names, descriptions, JSON schemas) and running one call —
//! saving plan fields and completing steps through the same validation as the plan API, reading
//! the plan, the finance calculator, the price calculator, the IBS/CBS choice, a month's results, the dated facts, closed answers to tap,
//! the plan's PDF, a person from the team.

use serde_json::{Value as Json, json};

use super::{Engine, Reader, plan_summary};
use crate::{
    consultant::{finance_tool, llm::ToolCall, plan_request::PlanRequests, pricing_words, reform_tool},
    conversation::desk::Desk,
    facts,
    identity::users::User,
    plan::{
        month::YearMonth,
        sections::Step,
        store::{Patch, Source, StepUpdate},
        tracking::{
            Results,
            calendar::{self, CeilingOutlook},
            results,
        },
    },
    whatsapp::choices::{Choice, MAX_ROWS},
};

/// The model's `offer_choices`: two to ten short answers shown under its next message.
pub(super) fn offer_choices(call: &ToolCall, choices: &mut Vec<Choice>) -> String {
    let args: Json = serde_json::from_str(&call.arguments).unwrap_or_default();
    let options: Vec<String> = args["options"]
        .as_array()
        .map(|o| o.iter().filter_map(Json::as_str).map(|s| s.trim().to_owned()).collect())
        .unwrap_or_default();
    if !(2..=MAX_ROWS).contains(&options.len())
        || options.iter().any(|o| o.is_empty() || o.chars().count() > 24)
    {
        return "error: give 2 to 10 options of at most 24 characters each".into();
    }
    *choices = options
        .iter()
        .enumerate()
        .map(|(i, title)| Choice::new(format!("option:{}", i + 1), title))
        .collect();
    "ok: they will be shown as buttons (or a list) under your message; ask the question in your text".into()
}

/// The tools offered to the model, as the chat completions API takes them.
pub(super) fn definitions() -> Json {
    let section =
        json!({"type": "string", "enum": ["idea", "market", "finance", "marketing", "hr", "legal"]});
    json!([
        {"type": "function", "function": {
            "name": "save_plan_section",
            "description": "Saves fields of one section of the user's business plan. Field names: idea {businessIdea, problem, solution, differentiator, stage: idea|planning|started|running}; market {industry, targetCustomer, marketSize, competitors, location, strengths, weaknesses, opportunities, threats (the SWOT analysis)}; finance {startupCosts, monthlyFixedCosts, averageTicket, variableCostPerSale, variableCostPercent, expectedSalesPerMonth, workingCapital, fundingSource, monthlyWages (CLT wages a month), monthlyProLabore} (amounts in reais as numbers); marketing {channels: [string], positioning, pricingStrategy, launchPlan}; hr {teamSize, roles: [string], hiringPlan, partners}; legal {businessType (the legal form): mei|ei|ltda|slu|sa|undecided, companySize (porte, by yearly revenue; a MEI is me): me|epp|other|undecided, taxRegime: simei|simples_nacional|lucro_presumido|lucro_real|undecided, licences: [string], cnpjStatus: none|in_progress|active, activity: commerce|industry|services|commerce_and_services, cnae (the main activity's CNAE subclass, e.g. 9602-5/01, confirmed with the owner), issRatePercent (2-5), icmsRatePercent, profession: regulated|not_regulated (a regulated intellectual profession supervised by a council, LC 214/2025 art. 127: ask, never assume)}.",
            "parameters": {"type": "object", "properties": {"section": section, "fields": {"type": "object"}, "completed": {"type": "boolean"}}, "required": ["section", "fields"]}
        }},
        {"type": "function", "function": {
            "name": "record_month_results",
            "description": "Records a month's real results as the person tells them (\"fechei outubro com 21 mil e gastei 15\"): month as YYYY-MM (last month when they do not say), revenue and costs in reais as numbers, salesCount. Answers the month against the plan's forecast with the variance; repeat those numbers as they are.",
            "parameters": {"type": "object", "properties": {"month": {"type": "string"}, "revenue": {"type": "number"}, "costs": {"type": "number"}, "salesCount": {"type": "number"}}, "required": ["revenue", "costs"]}
        }},
        {"type": "function", "function": {
            "name": "set_step_completed",
            "description": "Marks one step of the plan complete (or not).",
            "parameters": {"type": "object", "properties": {"section": section, "completed": {"type": "boolean"}}, "required": ["section", "completed"]}
        }},
        {"type": "function", "function": {
            "name": "read_plan",
            "description": "Reads the user's whole business plan as it is saved now.",
            "parameters": {"type": "object", "properties": {}}
        }},
        finance_tool::definition(),
        pricing_words::definition(),
        reform_tool::definition(),
        {"type": "function", "function": {
            "name": "lookup_business_facts",
            "description": "Dated, sourced facts about Brazilian small business: MEI (revenue limit, DAS, who may be one, employees, yearly declaration, how to open), Simples Nacional (ME/EPP sizes, annexes and rates, effective rate, Fator R, other regimes), legal forms (MEI, EI, SLU, LTDA), licences, where to get free help (Sebrae), payments (Pix, card machines) and the tax reform. Use it before quoting any tax, legal or monetary fact, and quote the date it gives.",
            "parameters": {"type": "object", "properties": {"topic": {"type": "string", "enum": facts::topics()}}, "required": ["topic"]}
        }},
        {"type": "function", "function": {
            "name": "offer_choices",
            "description": "Shows the user tappable answers (WhatsApp buttons, or a list beyond three) under your message, for a closed question: the business's stage, its legal form, its tax regime, yes or no. The tap comes back as the option's words.",
            "parameters": {"type": "object", "properties": {"options": {"type": "array", "items": {"type": "string", "maxLength": 24}, "minItems": 2, "maxItems": 10}}, "required": ["options"]}
        }},
        {"type": "function", "function": {
            "name": "send_plan_document",
            "description": "Sends the user their complete business plan as a PDF document here on WhatsApp (generated from what is saved now). Use it when they ask for their plan, the PDF or the document; then tell them it is on its way.",
            "parameters": {"type": "object", "properties": {}}
        }},
        {"type": "function", "function": {
            "name": "request_human",
            "description": "Calls a person from the Sócio team into this conversation: when the user asks to talk to a human, or needs what only a person can give (a complaint, a refund, a formal accounting or legal opinion). Then tell the user that a person will answer them here.",
            "parameters": {"type": "object", "properties": {"reason": {"type": "string", "description": "what the user needs, in a few words"}}, "required": ["reason"]}
        }}
    ])
}

impl Engine {
    /// The model's `send_plan_document`: the plan's PDF is on its way to WhatsApp.
    async fn send_plan_document(&self, user: &User) -> String {
        match PlanRequests::new(self.db.clone()).request(&user.id, user.language).await {
            Ok(()) => {
                "done: the PDF of the complete plan will arrive in this chat in a moment; tell the user so."
                    .into()
            }
            Err(err) => format!("error: could not send the plan: {err}"),
        }
    }

    /// The model's `request_human`: the person joins the admins' queue.
    async fn request_human(&self, user: &User, reason: &str) -> String {
        match Desk::new(self.db.clone()).queue_for_a_person(&user.id, reason).await {
            Ok(()) => {
                "done: a person from the team will answer the user in this conversation; tell them so.".into()
            }
            Err(err) => format!("error: could not call a person: {err}"),
        }
    }

    /// The model's `record_month_results`: a month's revenue, costs and sales as the person said
    /// them; the answer is the month against the plan (or the field that is wrong).
    async fn record_month_results(&self, user: &User, args: &Json) -> String {
        let month = match args["month"].as_str() {
            Some(text) => match YearMonth::parse("month", text, self.db.now_ms()) {
                Ok(month) => month,
                Err(err) => return format!("error: {}", err.message(user.language)),
            },
            None => YearMonth::current(self.db.now_ms()).previous(),
        };
        let number = |key: &str| args[key].as_f64();
        let (Some(revenue), Some(costs)) = (number("revenue"), number("costs")) else {
            return "error: revenue and costs (reais, numbers) are required; ask for what is missing".into();
        };
        let sales = args["salesCount"].as_f64().map(|s| s.round() as i64).unwrap_or(0);
        let months = Results::new(self.plans.clone());
        match months.record_month(&user.id, month, (revenue, costs, sales), Source::WhatsApp).await {
            Ok(recorded) => {
                let forecast = months.forecast_for(&user.id).await.ok().flatten();
                format!("saved: {}", results::as_json(&[recorded], forecast.as_ref()))
            }
            Err(err) => format!("error: not saved: {}", err.message(user.language)),
        }
    }

    /// The plan's finance figures worked out, with the months they recorded against the plan, so
    /// "why did my profit fall?" is answered with the server's numbers; a MEI whose recorded
    /// revenue passed the ceiling hears what to do and by when, as the dashboard's card says it.
    async fn analyse_finance(&self, user: &User, args: &Json) -> String {
        let Ok(plan) = self.plans.get_or_create(&user.id).await else {
            return "error: the plan cannot be read now".into();
        };
        let mut analysis = finance_tool::run(&plan, args);
        if let Ok(outlook) = Results::new(self.plans.clone()).outlook(&user.id).await
            && !outlook.months.is_empty()
        {
            analysis["recordedMonths"] = results::as_json(&outlook.months, outlook.forecast.as_ref());
            if let Some(CeilingOutlook::Passed(over) | CeilingOutlook::YearOver(over)) = outlook.ceiling {
                analysis["meiCeilingPassed"] = json!({
                    "reportBy": over.report_by.iso(),
                    "whatToDo": calendar::what_to_do(&over, outlook.today, user.language),
                    "note": "tell the user what to do and by when, in these words, before anything else"
                });
            }
        }
        analysis.to_string()
    }

    /// A Simples company's IBS/CBS choice from its plan (reading never creates a plan).
    async fn reform_choice(&self, user: &User, args: &Json) -> String {
        match self.plans.find(&user.id).await {
            Ok(Some(plan)) => reform_tool::run(&plan, args, user.language),
            Ok(None) => "error: the user has no plan yet: build its finance and legal steps first".into(),
            Err(_) => "error: the plan cannot be read now".into(),
        }
    }

    /// Runs one tool call; what goes wrong is told to the model, and nothing invalid is written.
    pub(super) async fn run_tool(&self, user: &User, call: &ToolCall) -> String {
        let Ok(args) = serde_json::from_str::<Json>(&call.arguments) else {
            return "error: the arguments are not valid JSON".into();
        };
        let step = args["section"].as_str().and_then(Step::parse);
        let update = match (call.name.as_str(), step) {
            (finance_tool::NAME, _) => return self.analyse_finance(user, &args).await,
            (pricing_words::NAME, _) => {
                // Reading never creates a plan: without one, the price leaves taxes out (said so).
                return match self.plans.find(&user.id).await {
                    Ok(plan) => pricing_words::run(plan.as_ref(), &args, user.language),
                    Err(_) => "error: the plan cannot be read now".into(),
                };
            }
            (reform_tool::NAME, _) => return self.reform_choice(user, &args).await,
            ("record_month_results", _) => return self.record_month_results(user, &args).await,
            ("lookup_business_facts", _) => {
                let today = self.db.clock().today().iso();
                return facts::lookup(args["topic"].as_str().unwrap_or_default(), user.language, &today)
                    .to_string();
            }
            ("send_plan_document", _) => return self.send_plan_document(user).await,
            ("request_human", _) => {
                return self.request_human(user, args["reason"].as_str().unwrap_or("")).await;
            }
            ("read_plan", _) => {
                return match self.plans.get_or_create(&user.id).await {
                    Ok(plan) => plan_summary(&plan, Reader::Model(user.language)),
                    Err(err) => format!("error: {err}"),
                };
            }
            ("save_plan_section", Some(step)) if args["fields"].is_object() => StepUpdate {
                step,
                patch: Some(Patch::Merge(args["fields"].clone())),
                completed: args["completed"].as_bool(),
                field: "fields".into(),
            },
            ("set_step_completed", Some(step)) => match args["completed"].as_bool() {
                Some(completed) => {
                    StepUpdate { step, patch: None, completed: Some(completed), field: "fields".into() }
                }
                None => return "error: completed must be true or false".into(),
            },
            (_, None) => {
                return "error: section must be one of idea, market, finance, marketing, hr, legal".into();
            }
            _ => return format!("error: unknown tool or arguments for {}", call.name),
        };
        match self.plans.update(&user.id, Some(&user.id), Source::WhatsApp, &[update]).await {
            Ok((plan, _)) => format!("saved. Plan progress {}%.", plan.progress()),
            Err(err) => format!("error: not saved: {}", err.message(user.language)),
        }
    }
}
