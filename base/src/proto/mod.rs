//! The code generated from `proto/`, the encoded descriptors (which reflection and the REST
//! transcoder read) and the one JSON mapping of messages (REST, stored plan sections, the change
//! feed).

pub mod json;

use std::sync::OnceLock;

use prost_reflect::DescriptorPool;

#[allow(clippy::all, clippy::pedantic, clippy::wildcard_enum_match_arm)]
pub mod socio {
    pub mod v1 {
        tonic::include_proto!("socio.v1");
    }
}

/// Every contract file and its imports, encoded as protoc would, custom options included.
pub const DESCRIPTOR_SET: &[u8] = tonic::include_file_descriptor_set!("socio_descriptor");

/// The descriptors, decoded once.
pub fn descriptor_pool() -> &'static DescriptorPool {
    static POOL: OnceLock<DescriptorPool> = OnceLock::new();
    POOL.get_or_init(|| {
        DescriptorPool::decode(DESCRIPTOR_SET).expect("the build's own descriptor set decodes")
    })
}
