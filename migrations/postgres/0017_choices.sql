-- Closed questions as taps: the answers offered with one of our messages (JSON: [{id, title}]),
-- kept with the message so its send job offers them, and in the dev outbox for the simulator.
alter table messages add column choices text;
alter table whatsapp_outbox add column choices text;
