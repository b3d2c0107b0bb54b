//! Every day boundary is a day in São Paulo: at 23:30 there (02:30 UTC, already tomorrow in UTC)
//! the dashboard's week and active days, the admin's messages per day and the chat-history date
//! filter all count the São Paulo day.

use reqwest::Method;
use serde_json::Value;
use socio::{
    analytics::Funnel,
    clock::{CivilDate, DAY_MS},
    conversation::{messages::Author, overview::Overviews},
    plan::{Plans, events::PlanEvents},
};

use crate::{
    helpers::{TestApp, TestDatabase, spawn_app_with},
    on_both_engines,
};

const ADMIN: &str = "+5531999990000";
/// 2026-11-22 02:30 UTC: 23:30 on Saturday 21 November in São Paulo.
const SATURDAY_23_30: i64 = 1_795_314_600_000;
const HOUR: i64 = 3_600_000;

/// The person's activity figures as the dashboard reads them, with the clock at `at`.
async fn activity_at(app: &TestApp, user_id: &str, at: i64) -> socio::conversation::messages::Activity {
    app.db.clock().set(at);
    let overviews = Overviews::new(Plans::new(app.db.clone(), PlanEvents::default()));
    overviews.stats(user_id).await.unwrap().1
}

/// The person writes "oi" with the clock set to `at`.
async fn message_at(app: &TestApp, user_id: &str, at: i64) {
    app.db.clock().set(at);
    let messages = socio::conversation::messages::Messages::new(app.db.clone());
    messages.insert_web(user_id, Author::User, "oi", app.db.now_ms()).await.unwrap();
}

async fn at_half_past_eleven_in_sao_paulo_the_day_counted_is_sao_paulo_s(db: TestDatabase) {
    let app = spawn_app_with(db, &[("ADMIN_PHONES", ADMIN.into())]).await;
    let ana = app.register("+5511987654321").await;
    // Saturday 23:30 and 00:10 (both the 21st in São Paulo; the 22nd in UTC), Friday 22:00 (the
    // 20th there, already the 21st in UTC), and the Saturday before at 23:45: within 7 × 24 hours,
    // but before the week's first midnight in São Paulo.
    let friday_22_00 = SATURDAY_23_30 - 25 * HOUR - 30 * 60_000;
    let saturday_00_10 = SATURDAY_23_30 - 23 * HOUR - 20 * 60_000;
    let week_before = SATURDAY_23_30 - 7 * DAY_MS + 15 * 60_000;
    for at in [SATURDAY_23_30, saturday_00_10, friday_22_00, week_before] {
        message_at(&app, &ana, at).await;
    }

    let activity = activity_at(&app, &ana, SATURDAY_23_30 + 60_000).await;
    assert_eq!(activity.days_active, 3, "Saturday, Friday and the Saturday before, in São Paulo");
    assert_eq!(activity.messages_this_week, 3, "today and the six days before it, from midnight there");

    let rates = socio::config::MessageRates::default();
    let report = Funnel::new(app.db.clone()).report(3, &rates).await.unwrap();
    let days: Vec<(String, i64)> = report.messages_per_day.iter().map(|d| (d.day.clone(), d.count)).collect();
    assert_eq!(
        days,
        [("2026-11-19".to_owned(), 0), ("2026-11-20".to_owned(), 1), ("2026-11-21".to_owned(), 2)],
        "UTC would have put two of them on the 22nd"
    );
    assert_eq!(
        CivilDate::in_sao_paulo(SATURDAY_23_30).brazilian(),
        "21/11/2026",
        "the date printed on a plan"
    );

    let (admin, _) = app.login(ADMIN).await;
    let path = format!(
        "/api/admin/users/{ana}/chat-history?startDate=2026-11-21T00:00:00Z&endDate=2026-11-21T00:00:00Z"
    );
    let (status, body) = app.call(Method::GET, &path, Value::Null, Some(&admin)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["messages"].as_array().unwrap().len(), 2, "the 21st in São Paulo: {body}");
    let path = format!(
        "/api/admin/users/{ana}/chat-history?startDate=2026-11-20T00:00:00Z&endDate=2026-11-20T00:00:00Z"
    );
    let (_, body) = app.call(Method::GET, &path, Value::Null, Some(&admin)).await;
    assert_eq!(body["data"]["messages"].as_array().unwrap().len(), 1, "Friday 22:00 there");
}
on_both_engines!(at_half_past_eleven_in_sao_paulo_the_day_counted_is_sao_paulo_s);

async fn across_the_2018_summer_time_change_active_days_are_still_sao_paulo_days(db: TestDatabase) {
    let app = spawn_app_with(db, &[]).await;
    let ana = app.register("+5511987654321").await;
    // Brazilian summer time began on 2018-11-04 (UTC−3 → UTC−2). At 20:00 and 22:00 on the 3rd
    // (the 22:00 is already the 4th in UTC), and at 00:30 and 01:30 on the 10th (which a fixed
    // UTC−3 would put on the 9th): two days in São Paulo. The 30 days before the 10th span the
    // change, so the days are counted one by one.
    let third = CivilDate { year: 2018, month: 11, day: 3 }.starts_at();
    let tenth = CivilDate { year: 2018, month: 11, day: 10 }.starts_at();
    let times = [third + 20 * HOUR, third + 22 * HOUR, tenth + 30 * 60_000, tenth + 90 * 60_000];
    for at in times {
        message_at(&app, &ana, at).await;
    }
    let activity = activity_at(&app, &ana, tenth + 2 * HOUR).await;
    assert_eq!(
        (activity.days_active, activity.messages_this_week, activity.total_messages),
        (2, 2, 4),
        "two São Paulo days; the week starts on the 4th"
    );
}
on_both_engines!(across_the_2018_summer_time_change_active_days_are_still_sao_paulo_days);
