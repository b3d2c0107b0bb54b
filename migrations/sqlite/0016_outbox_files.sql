-- The dev outbox keeps the files the product sends (the business plan's PDF), so the simulator
-- can offer them for download as a phone would.
alter table whatsapp_outbox add column file_name text;
alter table whatsapp_outbox add column file_data blob;
