//! Wire types of a project's comments.

use crate::model::common::{wire, Id, PageNumber};

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
