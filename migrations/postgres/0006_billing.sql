-- Billing: checkout sessions, subscriptions and the provider events already handled.

create table checkout_sessions (
    id text primary key,
    user_id text references users (id) on delete set null,
    -- pro (free needs no session)
    plan_type text not null,
    -- monthly | yearly
    billing_interval text not null,
    -- sandbox | stripe
    provider text not null,
    provider_session_id text,
    amount_cents bigint not null,
    currency text not null,
    -- open | paid | canceled
    status text not null,
    created_at bigint not null,
    completed_at bigint
);
create index checkout_sessions_user_idx on checkout_sessions (user_id);

create table subscriptions (
    id text primary key,
    -- kept (de-identified) when the user is erased: billing records the law requires
    user_id text references users (id) on delete set null,
    plan_type text not null,
    billing_interval text not null,
    provider text not null,
    provider_customer_id text,
    provider_subscription_id text,
    provider_payment_id text,
    -- active | past_due | canceled
    status text not null,
    current_period_end bigint,
    cancel_at_period_end boolean not null default false,
    first_paid_at bigint,
    amount_cents bigint not null,
    -- admin overrides are recorded as such
    source text not null default 'checkout',
    created_at bigint not null,
    updated_at bigint not null
);
create index subscriptions_user_idx on subscriptions (user_id, created_at);

create table billing_events (
    provider text not null,
    event_id text not null,
    kind text not null,
    received_at bigint not null,
    primary key (provider, event_id)
);
