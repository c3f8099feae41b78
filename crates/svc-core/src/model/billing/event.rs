//! Wire types of events: their types, webhooks, list queries.

use crate::model::common::{value_set, wire, Id, PageNumber};
use svc_json::Value;

value_set! {
    /// The 24 documented kinds of billing event.
    EventType {
    SubscriptionCreated = "subscription_created",
    TrialExpiring = "trial_expiring",
    SubscriptionActivation = "subscription_activation",
    SubscriptionAhead = "subscription_ahead",
    SubscriptionRenewed = "subscription_renewed",
    BillingDateChanged = "billing_date_changed",
    SubscriptionUpgraded = "subscription_upgraded",
    SubscriptionDowngraded = "subscription_downgraded",
    SubscriptionUnpaid = "subscription_unpaid",
    SubscriptionCancelled = "subscription_cancelled",
    SubscriptionReactivated = "subscription_reactivated",
    SubscriptionCancellationScheduled = "subscription_cancellation_scheduled",
    SubscriptionMoveToFreeScheduled = "subscription_move_to_free_scheduled",
    SubscriptionExpiring = "subscription_expiring",
    SubscriptionExpired = "subscription_expired",
    SubscriptionDeleted = "subscription_deleted",
    InvoiceCreated = "invoice_created",
    CreditnoteAdded = "creditnote_added",
    PaymentThankyou = "payment_thankyou",
    PaymentRefunded = "payment_refunded",
    PaymentDeclined = "payment_declined",
    CardExpired = "card_expired",
    CardExpiring = "card_expiring",
    CardDeleted = "card_deleted",
    }
}

/// The wire names of the 24 event types.
pub const EVENT_TYPES: &[&str] = EventType::VALUES;

value_set! {
    WebhookStatus { Success = "success", Scheduled = "scheduled", Failure = "failure" }
}

wire! {
    /// One delivery of an event to a webhook.
    response EventWebhook {
        webhook_id?: Id,
        url?: String,
        #[tsify(type = "WebhookStatus")]
        status?: String,
        /// When it was last sent.
        last_updated_time?: String,
    }
}

wire! {
    /// A happening in the organization; also the body of a billing webhook.
    response Event {
        event_id: Id,
        #[tsify(type = "EventType")]
        event_type?: String,
        event_time?: String,
        /// The data of the happening; its structure per event type is not documented.
        #[tsify(type = "string | Record<string, unknown>")]
        payload?: Value,
        webhooks?: Vec<EventWebhook>,
    }
}

impl Event {
    /// The event type, when it is one of the documented ones.
    pub fn kind(&self) -> Option<EventType> {
        let name = self.event_type.as_deref()?;
        svc_json::from_json(&svc_json::Json::Str(name.into())).ok()
    }
}

wire! {
    /// Query of `listEvents`.
    #[derive(Default)]
    request EventListQuery {
        page?: PageNumber,
        per_page?: PageNumber,
    }
}
