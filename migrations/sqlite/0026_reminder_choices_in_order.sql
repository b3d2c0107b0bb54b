-- "PARAR" is final (issue 42): when the person last stopped and last resumed, kept even after a
-- later change, so that a stop or resume reported late (Meta's user_preferences webhook, dated by
-- its timestamp) never undoes a newer choice, and a proactive message written before a stop is
-- never sent after it, even when its send is retried after a resume. Unix ms.
alter table reminder_preferences add column last_stop_at bigint;
alter table reminder_preferences add column last_resume_at bigint;
