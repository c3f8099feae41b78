//! Wire types of plans: bodies, addons, price brackets, custom fields, tax preferences, list queries.

use super::number_or_text::NumberOrText;
use crate::model::common::{value_set, wire, Id, JsonInteger, JsonNumber, PageNumber, Tag};
use svc_json::Value;

value_set! {
    PlanStatus { Active = "active", Inactive = "inactive" }
}

value_set! {
    IntervalUnit { Months = "months", Years = "years" }
}

value_set! {
    TaxSpecification { Inter = "inter", Intra = "intra" }
}

value_set! {
    /// `filter_by` of `listPlans`, bare or written as a `PlanStatus.` value.
    PlanFilter {
        All = "All",
        Active = "ACTIVE",
        Inactive = "INACTIVE",
        StatusAll = "PlanStatus.All",
        StatusActive = "PlanStatus.ACTIVE",
        StatusInactive = "PlanStatus.INACTIVE",
    }
}

wire! {
    request AddonInput {
        addon_code?: String,
        name?: String,
    }
}

wire! {
    request PlanCustomFieldInput {
        customfield_id?: Id,
        label?: String,
        value?: NumberOrText,
    }
}

wire! {
    request ItemTaxPreferenceInput {
        tax_id?: Id,
        tax_specification?: TaxSpecification,
        tax_name?: String,
        tax_percentage?: JsonNumber,
    }
}

wire! {
    /// Body of `createPlan` and `updatePlan`; the documents mark no field required.
    #[derive(Default)]
    request PlanInput {
        plan_code?: String,
        name?: String,
        description?: String,
        store_markup_description?: String,
        status?: PlanStatus,
        product_id?: Id,
        account_id?: Id,
        tax_id?: Id,
        trial_period?: JsonInteger,
        setup_fee?: JsonNumber,
        setup_fee_account_id?: Id,
        tags?: Vec<Tag>,
        custom_fields?: Vec<PlanCustomFieldInput>,
        recurring_price?: JsonNumber,
        unit?: String,
        /// Billing period count: 2 with `months` bills every two months.
        interval?: JsonInteger,
        interval_unit?: IntervalUnit,
        billing_cycles?: JsonInteger,
        product_type?: String,
        hsn_or_sac?: String,
        sat_item_key_code?: JsonInteger,
        unitkey_code?: String,
        item_tax_preferences?: Vec<ItemTaxPreferenceInput>,
        addons?: Vec<AddonInput>,
        is_taxable?: bool,
        tax_exemption_id?: Id,
        tax_exemption_code?: String,
        can_charge_setup_fee_immediately?: bool,
    }
}

wire! {
    /// One quantity bracket of an addon's price.
    response PriceBracket {
        start_quantity?: NumberOrText,
        end_quantity?: NumberOrText,
        price?: NumberOrText,
    }
}

wire! {
    /// An addon of a plan, as responses list it.
    response PlanAddon {
        addon_code?: String,
        name?: String,
        status?: String,
        pricing_scheme?: String,
        unit_name?: String,
        price_brackets?: Vec<PriceBracket>,
    }
}

wire! {
    /// A custom field of a plan, as responses list it.
    response PlanCustomField {
        customfield_id?: Id,
        is_active?: bool,
        show_in_all_pdf?: bool,
        value_formatted?: String,
        data_type?: String,
        index?: NumberOrText,
        label?: String,
        show_on_pdf?: bool,
        placeholder?: String,
        #[tsify(type = "unknown")]
        value?: Value,
    }
}

wire! {
    /// A tax preference of a plan, as responses list it.
    response PlanTaxPreference {
        tax_id?: Id,
        #[tsify(type = "TaxSpecification")]
        tax_specification?: String,
        tax_name?: String,
        tax_percentage?: NumberOrText,
    }
}

wire! {
    /// A plan, as the plan operations return it.
    response Plan {
        plan_code: String,
        name?: String,
        description?: String,
        store_markup_description?: String,
        #[tsify(type = "PlanStatus")]
        status?: String,
        product_id?: Id,
        account_id?: Id,
        account_name?: String,
        tax_id?: Id,
        trial_period?: JsonInteger,
        setup_fee?: JsonNumber,
        setup_fee_account_id?: Id,
        setup_fee_account_name?: String,
        tags?: Vec<Tag>,
        custom_fields?: Vec<PlanCustomField>,
        recurring_price?: JsonNumber,
        unit?: String,
        interval?: JsonInteger,
        #[tsify(type = "IntervalUnit")]
        interval_unit?: String,
        /// -1 in the samples; its meaning is not documented.
        billing_cycles?: JsonInteger,
        product_type?: String,
        hsn_or_sac?: String,
        sat_item_key_code?: NumberOrText,
        unitkey_code?: String,
        item_tax_preferences?: Vec<PlanTaxPreference>,
        addons?: Vec<PlanAddon>,
        /// The hosted subscription page.
        url?: String,
        created_time?: String,
        updated_time?: String,
    }
}

wire! {
    /// Query of `listPlans`.
    #[derive(Default)]
    request PlanListQuery {
        filter_by?: PlanFilter,
        product_id?: Id,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}
