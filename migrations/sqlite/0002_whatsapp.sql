-- WhatsApp channel: what the user sent is kept whole, and the dev outbox stands in for the phones.

-- The message as WhatsApp delivered it (JSON), so nothing the user sent is lost even when we cannot
-- use its type yet; the media id of audio, images and documents.
alter table messages add column raw text;
alter table messages add column media_id text;
-- The reply job that took an inbound message (status 'processing'), so a retried job finds its own.
alter table messages add column reply_job text;

create index messages_user_status_idx on messages (user_id, direction, status);

-- Development mode only: every message the product "sent" over WhatsApp, login codes included.
create table whatsapp_outbox (
    seq integer primary key autoincrement,
    to_phone text not null,
    body text not null,
    kind text not null,
    wa_message_id text not null,
    created_at bigint not null
);
create index whatsapp_outbox_phone_idx on whatsapp_outbox (to_phone, seq);
