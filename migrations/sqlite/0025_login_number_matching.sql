-- A login by message is confirmed only by its owner, on purpose (issue 42): the browser shows a
-- two-digit number and the question on WhatsApp offers three; only a tap on the matching one, on
-- that question while it is the latest message we sent the person, confirms it. The question
-- names the browser and system that asked (read from its User-Agent).
-- match_code: 10-99, shown by the browser; device: "<browser>\t<system>" (either may be empty);
-- question_id: the message that asked "was it you?". A new status, code_only: an admin sent the
-- text, and admins log in only with a code sent to their number.
alter table message_logins add column match_code integer;
alter table message_logins add column device text;
alter table message_logins add column question_id text;
