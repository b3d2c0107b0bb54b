-- Admin: an audit trail of admin actions, and a normalised search key for finding users by name
-- or number without regard to accents or case.

create table audit_events (
    id text primary key,
    actor_id text,
    action text not null,
    target_id text,
    detail text not null default '',
    created_at bigint not null
);
create index audit_events_created_idx on audit_events (created_at);

alter table users add column search_key text not null default '';
create index users_created_idx on users (created_at);
