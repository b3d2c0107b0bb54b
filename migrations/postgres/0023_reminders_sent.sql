-- Each proactive message goes once per person, kind and period, however many servers run the
-- scheduler and however often: the scheduler claims this key (insert … on conflict do nothing)
-- in the transaction that stores the message and its send job. kind: checkin, das, dasn, defis,
-- ceiling; period: 2026-10 (a month's) or 2026 (a year's). answered_at: when the person wrote
-- back after a check-in (the admin's "answered"). Times in Unix ms.
create table reminders_sent (
    user_id text not null references users (id) on delete cascade,
    kind text not null,
    period text not null,
    message_id text not null,
    sent_at bigint not null,
    answered_at bigint,
    primary key (user_id, kind, period)
);
create index reminders_sent_by_time on reminders_sent (sent_at);

-- A proactive message's template and its variables (JSON: {"template": "checkin", "params": […]}),
-- what it goes as outside the 24-hour window.
alter table messages add column template text;

-- The consultant offers the check-ins on WhatsApp once the finance step is done, once: when, in
-- which message (a "sim" right after it is consent), and when the person answered it.
alter table reminder_preferences add column offered_at bigint;
alter table reminder_preferences add column offer_message_id text;
alter table reminder_preferences add column offer_answered_at bigint;

-- The offline guide's interview for a month's results keeps the answers so far here (JSON).
alter table guide_state add column draft text;
