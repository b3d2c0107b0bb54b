-- WhatsApp's system notices (a person changed their number, their identity changed, …): not
-- messages anyone wrote, so never answered and never shown as a chat line, but kept — once, by
-- WhatsApp's id, so a redelivery changes nothing.
create table whatsapp_notices (
    wa_message_id text primary key,
    -- the account it concerns, when we know it (null after erasure)
    user_id text,
    -- user_changed_number, customer_identity_changed, …
    kind text not null,
    from_wa_id text not null,
    body text not null default '',
    raw text not null,
    received_at bigint not null
);
create index whatsapp_notices_user_idx on whatsapp_notices (user_id);
