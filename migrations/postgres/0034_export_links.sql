-- An export link is single-use and lives only as long as the session and role that asked for it
-- (issue 62): one row per link, claimed by its download; the link's signature names the row.
create table export_links (
    id text primary key,
    -- Whose data the link serves.
    user_id text not null,
    -- Who asked: their session (refresh-token family) and the role they held.
    requester_id text not null,
    session_id text not null,
    requester_role text not null,
    expires_at bigint not null,
    used_at bigint,
    created_at bigint not null
);
create index export_links_expires_idx on export_links (expires_at);
