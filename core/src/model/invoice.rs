//! Wire types of the invoice family: currencies, projects with their comments and invoices, recurring invoices.

use crate::format::Format;
use crate::model::billing::NumberOrText;
use crate::model::common::{value_set, wire, Id, JsonInteger, JsonNumber, PageNumber};

// ---- currencies ----

wire! {
    /// Create and update body of a currency. The documents give three of the text fields maximum
    /// lengths of 100, 4 and 100 without saying which, so none is enforced.
    request CurrencyInput {
        currency_code?: String,
        currency_symbol?: String,
        price_precision?: JsonInteger,
        /// A number pattern, e.g. `1,234,567.89`.
        currency_format?: String,
    }
}

wire! {
    /// A currency as returned by create, get and update.
    response Currency {
        currency_id: Id,
        currency_code?: String,
        currency_name?: String,
        currency_symbol?: String,
        price_precision?: JsonInteger,
        currency_format?: String,
        is_base_currency?: bool,
    }
}

wire! {
    /// An entry of the currency list: a currency with its exchange rate.
    response CurrencyListEntry {
        currency_id: Id,
        currency_code?: String,
        currency_name?: String,
        currency_symbol?: String,
        price_precision?: JsonInteger,
        currency_format?: String,
        is_base_currency?: bool,
        exchange_rate?: JsonNumber,
        /// A date `yyyy-mm-dd`.
        effective_date?: String,
    }
}

value_set! {
    /// Filter of the currency list.
    CurrencyFilter {
        ExcludeBaseCurrency = "Currencies.ExcludeBaseCurrency",
    }
}

wire! {
    /// Query of the currency list.
    request CurrencyListQuery {
        /// A blank string sends no filter.
        filter_by?: CurrencyFilter [OneOfUnlessBlank(CurrencyFilter::VALUES)],
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

// ---- projects ----

value_set! {
    /// How a project is billed.
    ProjectBillingType {
        FixedCostForProject = "fixed_cost_for_project",
        BasedOnProjectHours = "based_on_project_hours",
        BasedOnStaffHours = "based_on_staff_hours",
        BasedOnTaskHours = "based_on_task_hours",
    }
}

value_set! {
    /// What a project's budget counts.
    ProjectBudgetType {
        TotalProjectCost = "total_project_cost",
        TotalProjectHours = "total_project_hours",
        HoursPerTask = "hours_per_task",
        HoursPerStaff = "hours_per_staff",
    }
}

value_set! {
    ProjectStatus {
        Active = "active",
        Inactive = "inactive",
    }
}

value_set! {
    /// Role of a user on a project.
    ProjectUserRole {
        Staff = "staff",
        Admin = "admin",
        TimesheetStaff = "timesheetstaff",
    }
}

wire! {
    /// A task in a project create or update body.
    request ProjectTaskInput {
        task_name: String [MaxLen(100)],
        description?: String [MaxLen(500)],
        rate?: NumberOrText,
        budget_hours?: NumberOrText,
    }
}

wire! {
    /// A user in a project create or update body.
    request ProjectUserInput {
        user_id: Id,
        is_current_user?: bool,
        user_name?: String [MaxLen(200)],
        email?: String [MaxLen(100)],
        user_role?: ProjectUserRole,
        status?: String,
        rate?: NumberOrText,
        budget_hours?: NumberOrText,
        /// `hh:mm`.
        total_hours?: String [Format(Format::Duration)],
        /// `hh:mm`.
        billed_hours?: String [Format(Format::Duration)],
        /// `hh:mm`.
        un_billed_hours?: String [Format(Format::Duration)],
    }
}

/// Declares a request whose fields are `$head`'s and then a project body's (the update by a unique
/// field sends the body beside its header params).
macro_rules! project_request {
    ($(#[$m:meta])* $name:ident { $($head:tt)* }) => {
        wire! {
            $(#[$m])*
            request $name {
                $($head)*
                project_name: String [MaxLen(100)],
                customer_id: Id,
                /// The first user to add.
                user_id: Id,
                billing_type: ProjectBillingType,
                currency_id?: Id,
                description?: String [MaxLen(500)],
                status?: ProjectStatus,
                /// A number; the documents send it as a string.
                rate?: NumberOrText,
                /// A blank string sends none.
                budget_type?: ProjectBudgetType [OneOfUnlessBlank(ProjectBudgetType::VALUES)],
                budget_hours?: NumberOrText,
                budget_amount?: NumberOrText,
                tasks?: Vec<ProjectTaskInput>,
                users?: Vec<ProjectUserInput>,
            }
        }
    };
}

project_request! {
    /// Create and update body of a project (the update parameters equal the create parameters).
    ProjectInput {}
}

wire! {
    /// A task of a project response.
    response ProjectTask {
        task_id?: Id,
        task_name?: String,
        description?: String,
        #[tsify(type = "number | string")]
        rate?: serde_json::Value,
        #[tsify(type = "number | string")]
        budget_hours?: serde_json::Value,
        total_hours?: String,
        billed_hours?: String,
        un_billed_hours?: String,
        non_billable_hours?: String,
        status?: String,
        is_billable?: bool,
        #[tsify(type = "unknown")]
        task_custom_fields?: serde_json::Value,
    }
}

wire! {
    /// A user of a project response.
    response ProjectUser {
        user_id?: Id,
        is_current_user?: bool,
        user_name?: String,
        email?: String,
        #[tsify(type = "ProjectUserRole")]
        user_role?: String,
        status?: String,
        #[tsify(type = "number | string")]
        rate?: serde_json::Value,
        #[tsify(type = "number | string")]
        budget_hours?: serde_json::Value,
        total_hours?: String,
        billed_hours?: String,
        un_billed_hours?: String,
        #[tsify(type = "number | string")]
        cost_rate?: serde_json::Value,
    }
}

wire! {
    /// A project as returned by create, update and the list.
    response Project {
        project_id: Id,
        project_name?: String,
        customer_id?: Id,
        customer_name?: String,
        currency_code?: String,
        description?: String,
        #[tsify(type = "ProjectStatus")]
        status?: String,
        #[tsify(type = "ProjectBillingType")]
        billing_type?: String,
        #[tsify(type = "number | string")]
        rate?: serde_json::Value,
        #[tsify(type = "ProjectBudgetType")]
        budget_type?: String,
        #[tsify(type = "number | string")]
        budget_hours?: serde_json::Value,
        #[tsify(type = "number | string")]
        budget_amount?: serde_json::Value,
        #[tsify(type = "number | string")]
        cost_budget_amount?: serde_json::Value,
        user_id?: Id,
        /// `hh:mm`, as are the other `*_hours`.
        total_hours?: String,
        billed_hours?: String,
        un_billed_hours?: String,
        billable_hours?: String,
        non_billable_hours?: String,
        total_amount?: JsonNumber,
        billed_amount?: JsonNumber,
        un_billed_amount?: JsonNumber,
        billable_amount?: JsonNumber,
        non_billable_amount?: JsonNumber,
        is_recurrence_associated?: bool,
        #[tsify(type = "unknown[]")]
        recurring_invoices?: Vec<serde_json::Value>,
        created_time?: String,
        show_in_dashboard?: bool,
        has_attachment?: bool,
        tasks?: Vec<ProjectTask>,
        users?: Vec<ProjectUser>,
    }
}

value_set! {
    /// Filter of the project list.
    ProjectFilter {
        All = "Status.All",
        Active = "Status.Active",
        Inactive = "Status.Inactive",
    }
}

value_set! {
    /// Sort column of the project list.
    ProjectSortColumn {
        ProjectName = "project_name",
        CustomerName = "customer_name",
        Rate = "rate",
        CreatedTime = "created_time",
    }
}

wire! {
    /// Query of the project list.
    request ProjectListQuery {
        filter_by?: ProjectFilter,
        customer_id?: Id,
        sort_column?: ProjectSortColumn,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

wire! {
    /// Body of a project clone: the new project's name and description.
    request ProjectCloneInput {
        project_name?: String [MaxLen(100)],
        description?: String [MaxLen(500)],
    }
}

project_request! {
    /// Params of `updateProjectByUniqueField`: the values of its three headers, then the project body.
    ProjectUniqueFieldUpdateInput {
        /// API name of the unique custom field (header X-Unique-Identifier-Key).
        x_unique_identifier_key: String,
        /// Its value (header X-Unique-Identifier-Value).
        x_unique_identifier_value: String,
        /// Create the project when none matches (header X-Upsert).
        x_upsert?: bool as BoolLike,
    }
}

wire! {
    /// Body of `addProjectUsers`: the organization's users to put on the project.
    request ProjectUsersInput {
        users?: Vec<ProjectUserInput>,
        /// The cost rate of the users added.
        cost_rate?: NumberOrText,
    }
}

wire! {
    /// Body of `inviteProjectUser` and `updateProjectUser`: a user's details on a project.
    request ProjectUserDetailsInput {
        user_name?: String [MaxLen(200)],
        email?: String [MaxLen(100)],
        user_role?: ProjectUserRole,
        rate?: NumberOrText,
        budget_hours?: NumberOrText,
        cost_rate?: NumberOrText,
    }
}

wire! {
    /// Body of a new project comment.
    request ProjectCommentInput {
        description: String [MaxLen(500)],
    }
}

wire! {
    /// A comment on a project.
    response ProjectComment {
        comment_id: Id,
        project_id?: Id,
        description?: String,
        commented_by_id?: Id,
        commented_by?: String,
        is_current_user?: bool,
        date?: String,
        date_description?: String,
        time?: String,
    }
}

wire! {
    /// Query of a project's comment list.
    request ProjectCommentListQuery {
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

wire! {
    /// An entry of a project's invoice list.
    response ProjectInvoice {
        invoice_id: Id,
        customer_name?: String,
        status?: String,
        invoice_number?: String,
        reference_number?: String,
        date?: String,
        due_date?: String,
        #[tsify(type = "number | string")]
        total?: serde_json::Value,
        #[tsify(type = "number | string")]
        balance?: serde_json::Value,
        created_time?: String,
    }
}

value_set! {
    /// Sort column of a project's invoice list.
    ProjectInvoiceSortColumn {
        InvoiceNumber = "invoice_number",
        Date = "date",
        Total = "total",
        Balance = "balance",
        CreatedTime = "created_time",
    }
}

wire! {
    /// Query of a project's invoice list.
    request ProjectInvoiceListQuery {
        sort_column?: ProjectInvoiceSortColumn,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

// ---- recurring invoices ----

value_set! {
    /// Product type of a recurring invoice line.
    InvoiceProductType {
        Goods = "goods",
        Services = "services",
    }
}

value_set! {
    PaymentGatewayName {
        Paypal = "paypal",
        AuthorizeNet = "authorize_net",
        PayflowPro = "payflow_pro",
        Stripe = "stripe",
        TwoCheckout = "2checkout",
        Braintree = "braintree",
    }
}

value_set! {
    /// `additional_field1` of a payment gateway.
    PaymentGatewayMode {
        Standard = "standard",
        Adaptive = "adaptive",
    }
}

wire! {
    /// A billing or shipping address of a recurring invoice (`street2` is documented for billing only).
    request RecurringInvoiceAddressInput {
        address?: String,
        street2?: String,
        city?: String,
        state?: String,
        zip?: String,
        country?: String,
        fax?: String,
    }
}

wire! {
    response RecurringInvoiceAddress {
        address?: String,
        street2?: String,
        city?: String,
        state?: String,
        zip?: String,
        country?: String,
        fax?: String,
    }
}

wire! {
    request PaymentGatewayInput {
        configured?: bool,
        additional_field1?: PaymentGatewayMode,
        gateway_name?: PaymentGatewayName,
    }
}

wire! {
    response PaymentGateway {
        configured?: bool,
        #[tsify(type = "PaymentGatewayMode")]
        additional_field1?: String,
        #[tsify(type = "PaymentGatewayName")]
        gateway_name?: String,
    }
}

wire! {
    /// Payment options; the vendor examples carry the gateways here.
    request PaymentOptionsInput {
        payment_gateways?: Vec<PaymentGatewayInput>,
    }
}

wire! {
    response PaymentOptions {
        payment_gateways?: Vec<PaymentGateway>,
    }
}

wire! {
    request RecurringInvoiceCustomFieldInput {
        value?: String,
        label?: String,
        data_type?: String,
    }
}

wire! {
    response RecurringInvoiceCustomField {
        #[tsify(type = "unknown")]
        value?: serde_json::Value,
        label?: String,
        data_type?: String,
    }
}

wire! {
    /// A line of a recurring invoice create body.
    request RecurringInvoiceLineInput {
        line_item_id?: Id,
        item_id?: Id,
        name?: String [MaxLen(100)],
        description?: String [MaxLen(2000)],
        rate?: JsonNumber,
        quantity?: JsonInteger,
        discount?: String,
        tax_id?: Id,
        tds_tax_id?: Id,
        tax_exemption_id?: Id,
        avatax_tax_code?: String [MaxLen(25)],
        avatax_use_code?: String [MaxLen(25)],
        item_total?: JsonNumber,
        sku?: String,
        product_type?: InvoiceProductType,
        hsn_or_sac?: NumberOrText,
        project_id?: Id,
        project_name?: String,
        sat_item_key_code?: NumberOrText,
        unitkey_code?: String,
    }
}

wire! {
    /// A line of a recurring invoice response.
    response RecurringInvoiceLine {
        line_item_id?: Id,
        item_id?: Id,
        name?: String,
        description?: String,
        rate?: JsonNumber,
        quantity?: JsonNumber,
        #[tsify(type = "number | string")]
        discount?: serde_json::Value,
        tax_id?: Id,
        tds_tax_id?: Id,
        tax_exemption_id?: Id,
        avatax_tax_code?: String,
        avatax_use_code?: String,
        item_total?: JsonNumber,
        sku?: String,
        #[tsify(type = "InvoiceProductType")]
        product_type?: String,
        #[tsify(type = "number | string")]
        hsn_or_sac?: serde_json::Value,
        project_id?: Id,
        project_name?: String,
        #[tsify(type = "number | string")]
        sat_item_key_code?: serde_json::Value,
        unitkey_code?: String,
    }
}

/// Declares a request whose fields are `$head`'s and then a recurring invoice body's.
macro_rules! recurring_invoice_request {
    ($(#[$m:meta])* $name:ident { $($head:tt)* }) => {
        wire! {
            $(#[$m])*
            request $name {
                $($head)*
                /// Unique.
                recurrence_name: String [MaxLen(100)],
                customer_id: Id,
                /// Its values are not documented.
                recurrence_frequency: String,
                reference_number?: String,
                contact_persons?: Vec<Id>,
                currency_id?: Id,
                /// Dates `yyyy-mm-dd`.
                start_date?: String [Format(Format::Date)],
                end_date?: String [Format(Format::Date)],
                last_sent_date?: String [Format(Format::Date)],
                next_invoice_date?: String [Format(Format::Date)],
                /// Periods between recurrences.
                repeat_every?: JsonInteger,
                place_of_supply?: String,
                gst_no?: String,
                gst_treatment?: String,
                tax_treatment?: String,
                vat_treatment?: String,
                /// Mexico.
                cfdi_usage?: String,
                /// Mexico.
                allow_partial_payments?: bool,
                email?: String,
                custom_fields?: Vec<RecurringInvoiceCustomFieldInput>,
                billing_address?: RecurringInvoiceAddressInput,
                shipping_address?: RecurringInvoiceAddressInput,
                payment_gateways?: Vec<PaymentGatewayInput>,
                payment_options?: PaymentOptionsInput,
                avatax_exempt_no?: String [MaxLen(25)],
                avatax_use_code?: String [MaxLen(25)],
                tax_authority_id?: Id,
                tax_exemption_id?: Id,
                line_items?: Vec<RecurringInvoiceLineInput>,
            }
        }
    };
}

recurring_invoice_request! {
    /// Create and update body of a recurring invoice (the vendor's update sends the create's model).
    RecurringInvoiceInput {}
}

wire! {
    /// A recurring invoice as returned by create, get, update and the list.
    response RecurringInvoice {
        recurring_invoice_id: Id,
        recurrence_name?: String,
        /// `active`, or `stopped` once stopped.
        status?: String,
        reference_number?: String,
        customer_id?: Id,
        customer_name?: String,
        contact_persons?: Vec<Id>,
        currency_id?: Id,
        currency_code?: String,
        start_date?: String,
        end_date?: String,
        last_sent_date?: String,
        next_invoice_date?: String,
        recurrence_frequency?: String,
        repeat_every?: JsonInteger,
        place_of_supply?: String,
        gst_no?: String,
        gst_treatment?: String,
        is_pre_gst?: bool,
        tax_treatment?: String,
        vat_treatment?: String,
        cfdi_usage?: String,
        allow_partial_payments?: bool,
        email?: String,
        custom_fields?: Vec<RecurringInvoiceCustomField>,
        billing_address?: RecurringInvoiceAddress,
        shipping_address?: RecurringInvoiceAddress,
        payment_gateways?: Vec<PaymentGateway>,
        payment_options?: PaymentOptions,
        avatax_exempt_no?: String,
        avatax_use_code?: String,
        tax_authority_id?: Id,
        tax_exemption_id?: Id,
        line_items?: Vec<RecurringInvoiceLine>,
    }
}

recurring_invoice_request! {
    /// Params of `updateRecurringInvoiceByUniqueField`: the values of its three headers, then the
    /// recurring invoice body.
    RecurringInvoiceUniqueFieldUpdateInput {
        /// API name of the unique custom field (header X-Unique-Identifier-Key).
        x_unique_identifier_key: String,
        /// Its value (header X-Unique-Identifier-Value).
        x_unique_identifier_value: String,
        /// Create the recurring invoice when none matches (header X-Upsert).
        x_upsert?: bool as BoolLike,
    }
}

wire! {
    /// Query of the recurring invoice list, as the vendor's example sends it.
    request RecurringInvoiceListQuery {
        recurrence_name?: String,
        item_name?: String,
        item_description?: String,
        customer_name?: String,
        line_item_id?: Id,
        item_id?: Id,
        tax_id?: Id,
        notes?: String,
        /// Dates `yyyy-mm-dd`.
        start_date?: String [Format(Format::Date)],
        end_date?: String [Format(Format::Date)],
        customer_id?: Id,
        /// `active`, or `stopped` once stopped.
        status?: String,
        filter_by?: String,
        search_text?: String,
        sort_column?: String,
        page?: PageNumber,
        per_page?: PageNumber,
    }
}

wire! {
    /// Body of `stopRecurringInvoice` and `resumeRecurringInvoice`: the vendor's example repeats the id.
    request RecurringInvoiceStatusInput {
        recurring_invoice_id?: Id,
    }
}

wire! {
    /// Body of `updateRecurringInvoiceTemplate`: the vendor's example repeats both ids.
    request RecurringInvoiceTemplateInput {
        recurring_invoice_id?: Id,
        template_id?: Id,
    }
}

wire! {
    /// An entry of a recurring invoice's history: what happened to it, or a comment.
    response RecurringInvoiceHistoryEntry {
        comment_id: Id,
        recurring_invoice_id?: Id,
        comment_description?: String,
        commented_by_id?: Id,
        commented_by?: String,
        /// `system` for what happened to it.
        comment_type?: String,
        operation_type?: String,
        date?: String,
        date_description?: String,
        time?: String,
        transaction_id?: Id,
        transaction_type?: String,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use serde::{de::DeserializeOwned, Serialize};
    use serde_json::{json, Value};
    use tsify::Tsify;

    fn vendor(name: &str) -> Value {
        let path =
            concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/vendor/").to_string() + name;
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        serde_json::from_str(&text).unwrap()
    }

    /// The resource under `key` of a vendor response: one object, or every member of an array.
    fn resources(file: &str, key: &str) -> Vec<Value> {
        match vendor(file)["response_body"][key].clone() {
            Value::Array(items) => items,
            Value::Null => panic!("{file}: no {key}"),
            one => vec![one],
        }
    }

    /// Equal as JSON, where ids may have become strings and integers may have become floats.
    pub(crate) fn same_json(a: &Value, b: &Value) -> bool {
        match (a, b) {
            (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
            (Value::String(s), Value::Number(n)) | (Value::Number(n), Value::String(s)) => {
                *s == n.to_string()
            }
            (Value::Array(x), Value::Array(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
            }
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len()
                    && x.iter()
                        .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
            }
            _ => a == b,
        }
    }

    pub(crate) fn decode_all<T: DeserializeOwned + Serialize>(file: &str, key: &str) -> Vec<T> {
        resources(file, key)
            .into_iter()
            .map(|v| {
                let t: T =
                    serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{file}: {e}"));
                let back = serde_json::to_value(&t).unwrap();
                assert!(
                    same_json(&back, &v),
                    "{file}: the round trip keeps every field\n{back}\n{v}"
                );
                t
            })
            .collect()
    }

    #[test]
    fn vendor_currency_responses_decode() {
        for file in [
            "books-as-invoice__create_currency.json",
            "books-as-invoice__get_currency.json",
            "books-as-invoice__update_currency.json",
        ] {
            let c: Vec<Currency> = decode_all(file, "currency");
            assert_eq!(c[0].currency_id, Id::from("982000000004012"));
            assert_eq!(c[0].price_precision, Some(2));
        }
        let list: Vec<CurrencyListEntry> =
            decode_all("books-as-invoice__list_currencies.json", "currencies");
        assert_eq!(list[0].effective_date.as_deref(), Some("2013-09-04"));
        assert_eq!(list[0].exchange_rate, Some(1.0));
    }

    #[test]
    fn vendor_project_responses_decode() {
        for file in [
            "books-as-invoice__create_project.json",
            "books-as-invoice__update_project.json",
            "books-as-invoice__get_project.json",
        ] {
            let p: Vec<Project> = decode_all(file, "project");
            assert_eq!(p[0].billing_type.as_deref(), Some("fixed_cost_for_project"));
            assert_eq!(
                p[0].tasks.as_ref().unwrap()[0].task_id,
                Some(Id::from("460000000044009"))
            );
            assert_eq!(p[0].total_amount, Some(500.0));
        }
        let list: Vec<Project> = decode_all("books-as-invoice__list_projects.json", "projects");
        assert_eq!(list[0].total_hours.as_deref(), Some("12:26"));
    }

    #[test]
    fn vendor_project_comment_and_invoice_responses_decode() {
        let added: Vec<ProjectComment> =
            decode_all("books-as-invoice__add_project_comment.json", "comments");
        assert_eq!(added[0].comment_id, Id::from("460000000044027"));
        let listed: Vec<ProjectComment> =
            decode_all("books-as-invoice__list_project_comments.json", "comments");
        assert_eq!(listed[0].is_current_user, Some(true));
        let invoices: Vec<ProjectInvoice> =
            decode_all("books-as-invoice__list_project_invoices.json", "invoices");
        assert_eq!(invoices[0].total, Some(json!("310.75")));
    }

    #[test]
    fn vendor_recurring_invoice_responses_decode() {
        for file in [
            "books-as-invoice__create_recurring_invoice.json",
            "books-as-invoice__get_recurring_invoice.json",
            "books-as-invoice__update_recurring_invoice.json",
        ] {
            let r: Vec<RecurringInvoice> = decode_all(file, "recurring_invoice");
            let line = &r[0].line_items.as_ref().unwrap()[0];
            assert_eq!(
                line.project_id,
                Some(Id::from("90300000087378")),
                "{file}: numeric ids become strings"
            );
            let gateways = r[0]
                .payment_options
                .as_ref()
                .unwrap()
                .payment_gateways
                .as_ref()
                .unwrap();
            assert_eq!(gateways[0].gateway_name.as_deref(), Some("paypal"));
            assert!(
                r[0].extra.contains_key("contact_persons_associated"),
                "{file}: unknown fields are kept"
            );
        }
    }

    #[test]
    fn ids_beyond_2_pow_53_keep_every_digit() {
        let p: Project = serde_json::from_str(
            r#"{"project_id": 18446744073709551615, "customer_id": 9007199254740993}"#,
        )
        .unwrap();
        assert_eq!(p.project_id, Id::from("18446744073709551615"));
        assert_eq!(
            serde_json::to_value(&p).unwrap()["customer_id"],
            json!("9007199254740993")
        );
    }

    #[test]
    fn requests_omit_absent_fields_and_send_value_sets_as_strings() {
        let input = ProjectInput {
            project_name: "Traffic flux".into(),
            customer_id: "460000000044001".into(),
            user_id: "460000000024003".into(),
            billing_type: ProjectBillingType::BasedOnTaskHours,
            currency_id: None,
            description: None,
            status: None,
            rate: Some(NumberOrText::Text("12.5".into())),
            budget_type: Some(ProjectBudgetType::HoursPerStaff),
            budget_hours: None,
            budget_amount: None,
            tasks: None,
            users: Some(vec![ProjectUserInput {
                user_id: "460000000024003".into(),
                is_current_user: None,
                user_name: None,
                email: None,
                user_role: Some(ProjectUserRole::TimesheetStaff),
                status: None,
                rate: None,
                budget_hours: None,
                total_hours: None,
                billed_hours: None,
                un_billed_hours: None,
            }]),
        };
        assert_eq!(
            serde_json::to_value(&input).unwrap(),
            json!({
                "project_name": "Traffic flux",
                "customer_id": "460000000044001",
                "user_id": "460000000024003",
                "billing_type": "based_on_task_hours",
                "rate": "12.5",
                "budget_type": "hours_per_staff",
                "users": [{"user_id": "460000000024003", "user_role": "timesheetstaff"}]
            })
        );
    }

    #[test]
    fn vendor_request_bodies_decode_into_the_input_types() {
        let body = |file: &str| vendor(file)["request_body"].clone();
        let _: CurrencyInput =
            serde_json::from_value(body("books-as-invoice__create_currency.json")).unwrap();
        let _: ProjectCommentInput =
            serde_json::from_value(body("books-as-invoice__add_project_comment.json")).unwrap();
        let r: RecurringInvoiceInput =
            serde_json::from_value(body("books-as-invoice__create_recurring_invoice.json"))
                .unwrap();
        assert_eq!(
            r.line_items.unwrap()[0].product_type,
            Some(InvoiceProductType::Goods)
        );
    }

    #[test]
    fn value_sets_serialize_to_their_listed_strings() {
        for (i, v) in [
            PaymentGatewayName::Paypal,
            PaymentGatewayName::AuthorizeNet,
            PaymentGatewayName::PayflowPro,
            PaymentGatewayName::Stripe,
            PaymentGatewayName::TwoCheckout,
            PaymentGatewayName::Braintree,
        ]
        .into_iter()
        .enumerate()
        {
            assert_eq!(
                serde_json::to_value(v).unwrap(),
                json!(PaymentGatewayName::VALUES[i])
            );
            assert_eq!(v.as_str(), PaymentGatewayName::VALUES[i]);
        }
        let f: ProjectFilter = serde_json::from_value(json!("Status.Inactive")).unwrap();
        assert_eq!(f, ProjectFilter::Inactive);
    }

    #[test]
    fn typescript_declarations_use_unions_and_keep_extra_on_responses_only() {
        assert!(ProjectBillingType::DECL
            .contains(r#""fixed_cost_for_project" | "based_on_project_hours""#));
        assert!(PaymentGatewayName::DECL.contains(r#""2checkout""#));
        assert!(
            ProjectInput::DECL.contains("billing_type: ProjectBillingType"),
            "{}",
            ProjectInput::DECL
        );
        assert!(
            ProjectInput::DECL.contains("rate?: NumberOrText"),
            "{}",
            ProjectInput::DECL
        );
        assert!(!ProjectInput::DECL.contains("Record<string, unknown>"));
        assert!(
            Project::DECL.contains("Record<string, unknown>"),
            "{}",
            Project::DECL
        );
        assert!(
            Project::DECL.contains("status?: ProjectStatus"),
            "{}",
            Project::DECL
        );
    }
}
