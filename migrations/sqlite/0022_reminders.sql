-- What a person agreed to receive from Sócio without writing first (nothing proactive without
-- consent): the monthly check-in and the fiscal reminders, on their day and hour, and whether
-- they stopped everything ("PARAR"). Times in Unix ms.
create table reminder_preferences (
    user_id text primary key references users (id) on delete cascade,
    monthly_checkin integer not null default 0,
    tax_reminders integer not null default 0,
    -- day of the month (1-28) and hour (8-19) of the check-in; null: the first business day, 9:00
    checkin_day integer,
    checkin_hour integer,
    -- when they agreed (last), and when they said stop (null while they receive them)
    consented_at bigint,
    stopped_at bigint,
    updated_at bigint not null
);
