-- The consultant: where each user is in the offline guide's interview.

create table guide_state (
    user_id text primary key references users (id) on delete cascade,
    -- the step and field of the question we asked last; empty when none is pending
    step text not null default '',
    field text not null default '',
    updated_at bigint not null
);

-- The consultant's system prompts; exactly one is active (the unique partial index holds it).
create table system_prompts (
    id text primary key,
    name text not null,
    title text not null,
    description text,
    content text not null,
    is_active boolean not null default false,
    version integer not null default 1,
    created_at bigint not null,
    updated_at bigint not null
);
create unique index system_prompts_one_active on system_prompts (is_active) where is_active;
