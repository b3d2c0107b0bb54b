-- A human consultant can step in. One row per person whose conversation is waiting for a person
-- (they asked for one, or asked for a consultation call) or taken over by an admin; giving the
-- conversation back to the consultant deletes it. While taken, nobody but the admin answers.
create table handoffs (
    user_id text primary key references users (id) on delete cascade,
    -- waiting | taken
    status text not null,
    -- asked (on WhatsApp or through the model), call (a consultation call from the dashboard),
    -- admin (an admin took over without being asked)
    reason text not null,
    -- what the person asked for: their words, or the times that suit them for a call
    note text not null default '',
    requested_at bigint not null,
    taken_by text references users (id) on delete set null,
    taken_by_name text not null default '',
    taken_at bigint,
    updated_at bigint not null
);
create index handoffs_status_idx on handoffs (status, requested_at);

-- A message an admin wrote as the consultant: who wrote it (the admin panel shows their name;
-- the person sees the consultant).
alter table messages add column sent_by text;
alter table messages add column sent_by_name text;
