//! The webhook parser against Meta's recorded payloads and documented shapes.

use super::*;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/../server/tests/fixtures/whatsapp/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|_| panic!("fixture {path}"))
}

#[test]
fn a_text_message_carries_sender_profile_name_and_words() {
    let inbound = parse(&fixture("inbound-text.json")).unwrap();
    let [message] = inbound.messages.as_slice() else { panic!("{inbound:?}") };
    assert_eq!(message.from.wa_id.as_deref(), Some("5511987654321"));
    assert_eq!(message.profile_name, "Ana Lima");
    assert_eq!(message.kind, MessageKind::Text);
    assert_eq!(message.text, "Oi! Quero abrir uma padaria.");
    assert_eq!(message.timestamp_ms, Some(1_795_253_580_000));
    assert!(message.wa_message_id.starts_with("wamid."));
}

#[test]
fn nul_characters_are_dropped_and_the_message_kept() {
    let body = String::from_utf8(fixture("inbound-text.json"))
        .unwrap()
        .replace("Quero abrir", "Quero\\u0000 abrir")
        .replace("Ana Lima", "Ana\\u0000 Lima");
    assert!(body.contains("\\u0000"));
    let inbound = parse(body.as_bytes()).unwrap();
    assert_eq!(inbound.messages[0].text, "Oi! Quero abrir uma padaria.");
    assert_eq!(inbound.messages[0].profile_name, "Ana Lima");
    assert!(!inbound.messages[0].raw.to_string().contains("\\u0000"), "nor in what is kept raw");
}

#[test]
fn a_voice_note_keeps_its_media_id() {
    let inbound = parse(&fixture("inbound-audio.json")).unwrap();
    assert_eq!(inbound.messages[0].kind, MessageKind::Audio);
    assert_eq!(inbound.messages[0].media_id.as_deref(), Some("1286470822462521"));
}

#[test]
fn images_keep_their_caption_and_button_replies_their_title() {
    let inbound = parse(&fixture("inbound-image-and-button.json")).unwrap();
    assert_eq!(inbound.messages.len(), 2);
    assert_eq!(
        (inbound.messages[0].kind.clone(), inbound.messages[0].text.as_str()),
        (MessageKind::Image, "Meu cardápio")
    );
    assert_eq!(
        (inbound.messages[1].kind.clone(), inbound.messages[1].text.as_str()),
        (MessageKind::Interactive, "Ver progresso")
    );
}

#[test]
fn statuses_are_parsed_with_meta_s_reason_for_failures() {
    let delivered = parse(&fixture("status-delivered.json")).unwrap();
    assert!(delivered.messages.is_empty());
    assert_eq!(delivered.statuses[0].status, DeliveryStatus::Delivered);
    let failed = parse(&fixture("status-failed.json")).unwrap();
    let error = failed.statuses[0].error.as_deref().unwrap();
    assert!(error.starts_with("131047 Re-engagement message"), "{error}");
}

#[test]
fn a_number_change_is_a_system_notice_with_the_new_number_and_no_contacts() {
    let inbound = parse(&fixture("inbound-system-user-changed-number.json")).unwrap();
    let [message] = inbound.messages.as_slice() else { panic!("{inbound:?}") };
    assert_eq!(message.kind, MessageKind::System);
    assert_eq!(message.from.wa_id.as_deref(), Some("553187654321"));
    assert_eq!(message.profile_name, "", "system messages carry no contacts");
    let notice = message.system.as_ref().unwrap();
    assert_eq!(notice.kind, "user_changed_number");
    assert_eq!(notice.new_wa_id.as_deref(), Some("5531976543210"));
    assert!(!message.kind.is_readable());
}

#[test]
fn a_type_the_cloud_api_cannot_show_is_still_something_the_person_sent() {
    let inbound = parse(&fixture("inbound-unsupported.json")).unwrap();
    let [message] = inbound.messages.as_slice() else { panic!("{inbound:?}") };
    assert_eq!(message.kind, MessageKind::Other("unsupported".into()));
    assert_eq!(message.system, None);
    assert_eq!(message.profile_name, "Ana Lima");
}

#[test]
fn a_stop_of_marketing_messages_is_read_from_the_user_preferences_field() {
    // The shape of Meta's user_preferences webhook reference.
    let body = br#"{"object":"whatsapp_business_account","entry":[{"id":"102290129340398","changes":[{"field":"user_preferences","value":{"messaging_product":"whatsapp","metadata":{"display_phone_number":"15550783881","phone_number_id":"106540352242922"},"contacts":[{"profile":{"name":"Sheena Nelson"},"wa_id":"5511987654321"}],"user_preferences":[{"wa_id":"5511987654321","detail":"User requested to stop marketing messages","category":"marketing_messages","value":"stop","timestamp":1731705721},{"wa_id":"5511987654321","category":"marketing_messages","value":"maybe","timestamp":1731705722}]}}]}]}"#;
    let inbound = parse(body).unwrap();
    let [change] = inbound.preferences.as_slice() else { panic!("{inbound:?}") };
    assert!(change.stop && change.from.wa_id.as_deref() == Some("5511987654321"));
    assert!(inbound.messages.is_empty() && inbound.statuses.is_empty());
}

#[test]
fn other_objects_and_fields_parse_to_nothing() {
    assert_eq!(parse(br#"{"object":"page","entry":[]}"#).unwrap(), Inbound::default());
    let other_field = br#"{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"account_update","value":{"x":1}}]}]}"#;
    assert_eq!(parse(other_field).unwrap(), Inbound::default());
}

#[test]
fn only_a_body_that_is_not_a_json_object_is_malformed() {
    assert!(parse(b"not json").is_err());
    assert!(parse(b"[1,2]").is_err());
    let odd_shapes = br#"{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages","value":{"contacts":"x","messages":{"a":1},"statuses":[1]}}]}]}"#;
    assert_eq!(parse(odd_shapes).unwrap(), Inbound::default());
}

#[test]
fn a_message_without_an_id_is_kept_as_unsupported_once() {
    let no_id = br#"{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages","value":{"messages":[{"from":"5511987654321","type":"text"}]}}]}]}"#;
    let first = parse(no_id).unwrap();
    let [message] = first.messages.as_slice() else { panic!("{first:?}") };
    assert_eq!(message.kind, MessageKind::Other("unsupported".into()));
    assert!(message.wa_message_id.starts_with("unread."));
    assert_eq!(
        parse(no_id).unwrap().messages[0].wa_message_id,
        message.wa_message_id,
        "stable across retries"
    );
}

#[test]
fn a_person_with_a_username_and_no_number_is_read_by_their_business_scoped_id() {
    let inbound = parse(&fixture("inbound-username-only.json")).unwrap();
    let [message] = inbound.messages.as_slice() else { panic!("{inbound:?}") };
    assert_eq!(message.from.wa_id, None);
    assert_eq!(message.from.user_id.as_deref(), Some("BR.1502576394655843"));
    assert_eq!(message.from.username.as_deref(), Some("@bia.doces"));
    assert_eq!(message.from.address(), Some("BR.1502576394655843"));
    assert_eq!(message.profile_name, "Bia Doces");
    assert_eq!(message.text, "Oi! Quero abrir uma doceria.");
}

#[test]
fn a_mixed_batch_keeps_every_message_with_its_own_sender() {
    let inbound = parse(&fixture("inbound-mixed-batch.json")).unwrap();
    let [bia, ana, unreadable] = inbound.messages.as_slice() else { panic!("{inbound:?}") };
    assert_eq!((bia.from.wa_id.as_deref(), bia.from.user_id.as_deref()), (None, Some("BR.1502576394655843")));
    assert_eq!(bia.profile_name, "Bia Doces");
    assert_eq!(ana.from.wa_id.as_deref(), Some("5511987654321"));
    assert_eq!(ana.from.user_id.as_deref(), Some("BR.2716354091827364"));
    assert_eq!((ana.profile_name.as_str(), ana.from.username.as_deref()), ("Ana Lima", None));
    assert_eq!(unreadable.kind, MessageKind::Other("unsupported".into()));
    assert_eq!(unreadable.from.wa_id.as_deref(), Some("5511987654321"));
}

#[test]
fn a_message_with_no_sender_at_all_is_skipped_and_counted() {
    let body = br#"{"object":"whatsapp_business_account","entry":[{"changes":[{"field":"messages","value":{"messages":[{"id":"wamid.1","type":"text","text":{"body":"?"}}]}}]}]}"#;
    let inbound = parse(body).unwrap();
    assert!(inbound.messages.is_empty());
    assert_eq!(inbound.unreadable, 1);
}

#[test]
fn statuses_say_what_meta_billed_and_name_a_business_scoped_recipient() {
    let inbound = parse(&fixture("status-billable-utility-bsuid.json")).unwrap();
    let [status] = inbound.statuses.as_slice() else { panic!("{inbound:?}") };
    assert_eq!(status.recipient, "BR.1502576394655843");
    let pricing = status.pricing.as_ref().unwrap();
    assert!(pricing.billable);
    assert_eq!(
        (pricing.model.as_str(), pricing.category.as_str(), pricing.kind.as_str()),
        ("PMP", "utility", "regular")
    );
    let free = parse(&fixture("status-delivered.json")).unwrap();
    assert!(!free.statuses[0].pricing.as_ref().unwrap().billable);
}

#[test]
fn a_number_change_names_the_new_number_and_the_new_business_scoped_id() {
    let inbound = parse(&fixture("inbound-system-user-changed-number-bsuid.json")).unwrap();
    let notice = inbound.messages[0].system.clone().unwrap();
    assert_eq!(notice.new_wa_id.as_deref(), Some("5511976543210"));
    assert_eq!(notice.new_user_id.as_deref(), Some("BR.9988776655443322"));
    assert_eq!(inbound.messages[0].from.user_id.as_deref(), Some("BR.2716354091827364"));
}

#[test]
fn business_scoped_ids_follow_meta_s_format() {
    assert!(bsuid("BR.1502576394655843").is_some());
    assert!(bsuid("US.ENT.11815799212886844830").is_some());
    for bad in
        ["", "5511987654321", "br.123", "BRA.123", "BR.", "BR.12-3", &format!("BR.{}", "1".repeat(129))]
    {
        assert_eq!(bsuid(bad), None, "{bad}");
    }
}

#[test]
fn a_tapped_reply_keeps_its_id() {
    let inbound = parse(&fixture("inbound-image-and-button.json")).unwrap();
    assert!(inbound.messages[1].choice_id.is_some());
}
