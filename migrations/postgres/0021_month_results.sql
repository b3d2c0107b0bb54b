-- A month's real results, as the person recorded them (on WhatsApp, the dashboard or the API), to
-- compare with what the plan expected. Amounts in centavos; one row per person and month.
create table month_results (
    user_id text not null references users (id) on delete cascade,
    -- YYYY-MM, a month of the São Paulo calendar
    month text not null,
    revenue_cents bigint not null,
    costs_cents bigint not null,
    sales_count integer not null,
    -- dashboard | whatsapp | api
    source text not null,
    recorded_at bigint not null,
    primary key (user_id, month)
);
