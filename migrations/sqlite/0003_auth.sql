-- Passwordless login: one-time codes (hashed), per-number failure state, rotating refresh tokens,
-- and fixed-window rate-limit counters shared by every server process.

alter table users add column last_login_at bigint;

create table login_codes (
    id text primary key,
    phone_number text not null,
    -- HMAC-SHA256 of the code, keyed with the server's secret
    code_hash text not null,
    attempts integer not null default 0,
    expires_at bigint not null,
    -- set when used, or when a newer code replaced it
    consumed_at bigint,
    created_at bigint not null
);
create index login_codes_phone_idx on login_codes (phone_number, created_at);

create table phone_auth_state (
    phone_number text primary key,
    -- wrong codes in a row, across resends
    failures integer not null default 0,
    locked_until bigint,
    updated_at bigint not null
);

create table refresh_tokens (
    id text primary key,
    family_id text not null,
    user_id text not null references users (id) on delete cascade,
    -- SHA-256 of the opaque token
    token_hash text not null unique,
    -- the family's absolute expiry, carried over on rotation
    expires_at bigint not null,
    used_at bigint,
    revoked_at bigint,
    created_at bigint not null
);
create index refresh_tokens_family_idx on refresh_tokens (family_id);
create index refresh_tokens_user_idx on refresh_tokens (user_id);

create table rate_limits (
    key text not null,
    window_start bigint not null,
    count integer not null,
    primary key (key, window_start)
);
create index rate_limits_window_idx on rate_limits (window_start);
