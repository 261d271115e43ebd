/// A like as one integer (post, user), for set membership over millions of likes without hashing structs.
func packed(_ like: Like) -> Int64 { Int64(like.post) << 32 | Int64(UInt32(bitPattern: like.user)) }

/// A follow as one integer (user, target), for set membership over millions of follows.
func packed(_ follow: Follow) -> Int64 { Int64(follow.user) << 32 | Int64(UInt32(bitPattern: follow.target)) }
