//! Inventory (packages, composite items, stock adjustments): its handlers.

mod adjustment;
mod composite_item;
mod package;

use crate::call::Handler;

pub const HANDLERS: &[(&str, Handler)] = &[
    ("createItemAdjustment", adjustment::create_item_adjustment),
    ("createPackage", package::create_package),
    ("listPackages", package::list_packages),
    ("updatePackage", package::update_package),
    ("createCompositeItem", composite_item::create_composite_item),
    ("listCompositeItems", composite_item::list_composite_items),
    ("updateCompositeItem", composite_item::update_composite_item),
    (
        "uploadCompositeItemImage",
        composite_item::upload_composite_item_image,
    ),
];
