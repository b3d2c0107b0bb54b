-- The consultant: where each user is in the offline guide's interview.

create table guide_state (
    user_id text primary key references users (id) on delete cascade,
    -- the step and field of the question we asked last; empty when none is pending
    step text not null default '',
    field text not null default '',
    updated_at bigint not null
);
