-- Core tables: users, their messages, their business plans with a change feed, and the job queue.
-- Booleans are integers (0/1) here: the Any driver cannot read SQLite's BOOLEAN type.
-- Times are Unix milliseconds (bigint) so both engines share one code path.

create table users (
    id text primary key,
    phone_number text not null unique,
    name text not null default '',
    language text not null default 'pt-BR',
    subscription_status text not null default 'free',
    role text not null default 'user',
    created_at bigint not null,
    updated_at bigint not null,
    last_active_at bigint
);
create index users_last_active_idx on users (last_active_at);

create table messages (
    id text primary key,
    user_id text not null references users (id) on delete cascade,
    -- inbound (from the user) or outbound (from us)
    direction text not null,
    -- user or assistant
    author text not null,
    -- text, audio, image, document, location, button, interactive, template, ...
    kind text not null default 'text',
    content text not null default '',
    -- WhatsApp's id: the dedupe key of inbound messages, the wamid of outbound ones
    wa_message_id text unique,
    -- received | queued | sent | delivered | read | failed
    status text not null,
    error text,
    created_at bigint not null,
    updated_at bigint not null
);
create index messages_user_created_idx on messages (user_id, created_at);
create index messages_status_idx on messages (status, updated_at);

create table business_plans (
    id text primary key,
    user_id text not null unique references users (id) on delete cascade,
    created_at bigint not null,
    updated_at bigint not null
);

create table plan_sections (
    plan_id text not null references business_plans (id) on delete cascade,
    -- idea | market | finance | marketing | hr | legal
    step text not null,
    data text not null default '{}',
    completed integer not null default 0,
    updated_at bigint not null,
    primary key (plan_id, step)
);

create table plan_changes (
    seq integer primary key autoincrement,
    plan_id text not null references business_plans (id) on delete cascade,
    step text not null,
    data text not null default '{}',
    completed integer,
    source text not null,
    actor_id text,
    created_at bigint not null
);
create index plan_changes_plan_seq_idx on plan_changes (plan_id, seq);

create table jobs (
    id text primary key,
    kind text not null,
    payload text not null,
    -- at most one job per key, ever: a duplicate enqueue is a no-op
    dedupe_key text unique,
    -- queued | running | done | failed
    status text not null default 'queued',
    attempts integer not null default 0,
    max_attempts integer not null,
    run_at bigint not null,
    locked_by text,
    locked_until bigint,
    last_error text,
    created_at bigint not null,
    updated_at bigint not null
);
create index jobs_ready_idx on jobs (status, run_at);
