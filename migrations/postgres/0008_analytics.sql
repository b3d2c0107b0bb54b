-- Analytics: the landing page's A/B funnel. One row per visitor, event kind and day (a visitor is a
-- random id the browser keeps; nothing personal), and the variant a checkout started from.

create table landing_events (
    kind text not null,
    variant text not null,
    visitor_id text not null,
    -- days since the Unix epoch (UTC)
    day bigint not null,
    created_at bigint not null,
    primary key (kind, visitor_id, day)
);
create index landing_events_day_idx on landing_events (day);

alter table checkout_sessions add column landing_variant text;
create index checkout_sessions_completed_idx on checkout_sessions (completed_at);
create index messages_created_idx on messages (created_at);
