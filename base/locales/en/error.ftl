error-invalid-input = Invalid input: { $first }
error-the-request-body-is-not = The request body is not valid: { $detail }
error-please-log-in-to-continue = Please log in to continue.
error-access-denied-you-are-not = Access denied. You are not allowed to do this.
error-already-exists = { $resource } already exists.
error-is-already-answering-this-conversation = { $by } is already answering this conversation.
error-too-many-attempts-try-again = Too many attempts. Try again in { $retry_after_secs ->
        [one] { $retry_after_secs } second
       *[other] { $retry_after_secs } seconds
    }.
error-number-not-registered-send-s = Number not registered. Send Sócio a message on WhatsApp to get started.
error-invalid-or-expired-code-please = Invalid or expired code. Please check your code and try again.
error-you-are-already-following-the = You are already following the plan in { $max } open screens. Close one to open another.
error-the-service-is-temporarily-unavailable = The service is temporarily unavailable. Please try again shortly.
error-the-payment-provider-refused-the = The payment provider refused the operation. Nothing changed in your subscription; please contact support.
error-we-could-not-reach-the = We could not reach the payment provider just now. Nothing changed in your subscription: please try again shortly.
error-something-went-wrong-on-our = Something went wrong on our side. Please try again.
error-the-active-prompt-cannot-be = The active prompt cannot be deleted. Activate another prompt first.
error-the-ai-consultant-is-part = The AI consultant is part of the Pro plan. Get Pro to talk to it.
error-this-person-has-not-written = This person has not written for over 24 hours, and WhatsApp only allows replies within 24 hours of their last message. The message was not sent.
error-the-person-has-not-given = The person has not given a Pix key yet: the refund cannot be paid before that.
error-this-refund-was-already-paid = This refund was already paid.
error-this-number-already-has-s = This number already has Sócio Pro running: nothing was charged. To move from monthly to yearly, log in and use "Switch to yearly" on the dashboard.
error-this-refund-s-pix-key = This refund's Pix key is not the one you saw in the list: nothing was recorded. Reload the list and check the key before paying.
error-your-pix-key-for-the = Your Pix key for the refund is already recorded and the payment is under way; for your safety it cannot be changed here. If it is wrong, write "human" on WhatsApp and our team will sort it out with you.
error-paying-ibs-and-cbs-inside = Paying IBS and CBS inside or outside the DAS is a Simples Nacional company's choice (not a MEI's): in the plan, choose the Simples Nacional and the activity (with the CNAE for services) in the Legal step, and the average ticket and sales in the Finance step.
error-we-sent-you-a-code = We sent you a code moments ago and it is still valid: check WhatsApp. You can ask for another in { $retry_after_secs ->
        [one] { $retry_after_secs } second
       *[other] { $retry_after_secs } seconds
    }.
error-too-many-wrong-codes-try = Too many wrong codes. Try again in { $minutes ->
        [one] { $minutes } minute
       *[other] { $minutes } minutes
    }.
error-is-required = { $field } is required
error-must-be-at-most-characters = { $field } must be at most { $max } characters
error-must-be-at-least-characters = { $field } must be at least { $min } characters
error-must-be-between-and = { $field } must be between { $min } and { $max }
error-format = { $field }: { $format }
error-no-nul = must not contain the null character (\0)
error-must-be-one-of = { $field } must be one of: { $values }
error-user = User
error-business-plan = Business plan
error-system-prompt = System prompt
error-checkout-session = Checkout session
error-subscription = Subscription
error-job = Job
error-file = File
error-login-request = Login request
error-refund = Refund
error-user-not-found = User not found.
error-business-plan-not-found = Business plan not found.
error-system-prompt-not-found = System prompt not found.
error-checkout-session-not-found = Checkout session not found.
error-no-active-subscription = No active subscription.
error-job-not-found = Job not found.
error-file-not-found = File not found.
error-login-request-not-found-start = Login request not found. Start again with the Log in with WhatsApp button.
error-no-pending-pix-refund = No pending Pix refund.
json-input-format-must-be-a-number = must be a number
input-format-true-or-false = true or false
input-format-a-text = a text
input-format-a-number = a number
