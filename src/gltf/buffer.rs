//! The one binary buffer of an exported asset: typed data appended as buffer views with their accessors,
//! each view aligned to 4 bytes (every component type the exporter writes is 4 bytes or smaller, and
//! glTF 2.0 3.6.2.4 asks for alignment to the component size), and the asset written as `.glb` (the
//! buffer as the binary chunk) or `.gltf` (the buffer as a base64 `data:` URI).

use base64::Engine as _;

use super::json::{Accessor, Buffer, BufferView, Root};

pub const FLOAT: u32 = 5126;
pub const UNSIGNED_INT: u32 = 5125;
pub const UNSIGNED_SHORT: u32 = 5123;
pub const UNSIGNED_BYTE: u32 = 5121;
pub const ARRAY_BUFFER: u32 = 34962;
pub const ELEMENT_ARRAY_BUFFER: u32 = 34963;

/// The buffer being built and the views and accessors that describe it.
#[derive(Debug, Default)]
pub struct BufferBuilder {
    pub bytes: Vec<u8>,
    pub views: Vec<BufferView>,
    pub accessors: Vec<Accessor>,
}

impl BufferBuilder {
    /// Appends `bytes` as one view (`target` for vertex and index data); returns the view's index.
    pub fn view(&mut self, bytes: &[u8], target: Option<u32>) -> u32 {
        while !self.bytes.len().is_multiple_of(4) {
            self.bytes.push(0);
        }
        let index = self.views.len() as u32;
        self.views.push(BufferView {
            buffer: 0,
            byte_offset: self.bytes.len() as u32,
            byte_length: bytes.len() as u32,
            byte_stride: None,
            target,
        });
        self.bytes.extend_from_slice(bytes);
        index
    }

    fn accessor(&mut self, accessor: Accessor) -> u32 {
        self.accessors.push(accessor);
        self.accessors.len() as u32 - 1
    }

    /// Float vectors of `N` components (`VEC3`, `VEC4`, …) with their bounds when `bounds` (positions and
    /// animation inputs must have them).
    pub fn floats<const N: usize>(&mut self, values: &[[f32; N]], target: Option<u32>, bounds: bool) -> u32 {
        let view = self.view(bytemuck::cast_slice(values), target);
        let (min, max) = if bounds { bounds_of(values) } else { (None, None) };
        self.accessor(Accessor {
            buffer_view: view,
            component_type: FLOAT,
            normalized: false,
            count: values.len() as u32,
            kind: type_name(N),
            min,
            max,
        })
    }

    /// Scalars (animation times, with bounds; morph weights).
    pub fn scalars(&mut self, values: &[f32], bounds: bool) -> u32 {
        let wrapped: Vec<[f32; 1]> = values.iter().map(|&v| [v]).collect();
        self.floats(&wrapped, None, bounds)
    }

    /// Column-major 4×4 matrices (inverse bind matrices).
    pub fn matrices(&mut self, values: &[glam::Mat4]) -> u32 {
        let flat: Vec<[f32; 16]> = values.iter().map(|m| m.to_cols_array()).collect();
        let view = self.view(bytemuck::cast_slice(&flat), None);
        self.accessor(Accessor {
            buffer_view: view,
            component_type: FLOAT,
            normalized: false,
            count: values.len() as u32,
            kind: "MAT4",
            min: None,
            max: None,
        })
    }

    /// Joint indices: four per vertex, as unsigned bytes when every index fits, else unsigned shorts.
    pub fn joints(&mut self, values: &[[u16; 4]]) -> u32 {
        let small = values.iter().flatten().all(|&j| j < 256);
        let (view, component_type) = if small {
            let bytes: Vec<u8> = values.iter().flatten().map(|&j| j as u8).collect();
            (self.view(&bytes, Some(ARRAY_BUFFER)), UNSIGNED_BYTE)
        } else {
            (self.view(bytemuck::cast_slice(values), Some(ARRAY_BUFFER)), UNSIGNED_SHORT)
        };
        self.accessor(Accessor {
            buffer_view: view,
            component_type,
            normalized: false,
            count: values.len() as u32,
            kind: "VEC4",
            min: None,
            max: None,
        })
    }

    /// Triangle (or line, point) indices.
    pub fn indices(&mut self, values: &[u32]) -> u32 {
        let view = self.view(bytemuck::cast_slice(values), Some(ELEMENT_ARRAY_BUFFER));
        self.accessor(Accessor {
            buffer_view: view,
            component_type: UNSIGNED_INT,
            normalized: false,
            count: values.len() as u32,
            kind: "SCALAR",
            min: None,
            max: None,
        })
    }
}

fn type_name(components: usize) -> &'static str {
    match components {
        1 => "SCALAR",
        2 => "VEC2",
        3 => "VEC3",
        4 => "VEC4",
        _ => "MAT4",
    }
}

fn bounds_of<const N: usize>(values: &[[f32; N]]) -> (Option<Vec<f32>>, Option<Vec<f32>>) {
    if values.is_empty() {
        return (None, None);
    }
    let mut min = [f32::INFINITY; N];
    let mut max = [f32::NEG_INFINITY; N];
    for v in values {
        for i in 0..N {
            min[i] = min[i].min(v[i]);
            max[i] = max[i].max(v[i]);
        }
    }
    (Some(min.to_vec()), Some(max.to_vec()))
}

/// The asset as a binary `.glb`: header, JSON chunk (padded with spaces), binary chunk (padded with
/// zeros), glTF 2.0 clause 4.
pub fn write_glb(mut root: Root, buffer: BufferBuilder) -> Result<Vec<u8>, serde_json::Error> {
    let BufferBuilder { mut bytes, views, accessors } = buffer;
    while !bytes.len().is_multiple_of(4) {
        bytes.push(0);
    }
    root.buffer_views = views;
    root.accessors = accessors;
    if !bytes.is_empty() {
        root.buffers = vec![Buffer { byte_length: bytes.len() as u32, uri: None }];
    }
    let mut json = serde_json::to_vec(&root)?;
    while !json.len().is_multiple_of(4) {
        json.push(b' ');
    }
    let bin_chunk = if bytes.is_empty() { 0 } else { 8 + bytes.len() };
    let total = 12 + 8 + json.len() + bin_chunk;
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    if !bytes.is_empty() {
        out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bytes);
    }
    Ok(out)
}

/// The asset as one self-contained `.gltf` JSON file: the buffer as a base64 `data:` URI.
pub fn write_gltf(mut root: Root, buffer: BufferBuilder) -> Result<Vec<u8>, serde_json::Error> {
    let BufferBuilder { bytes, views, accessors } = buffer;
    root.buffer_views = views;
    root.accessors = accessors;
    if !bytes.is_empty() {
        let encoded = base64::engine::general_purpose::STANDARD.encode(&bytes);
        root.buffers = vec![Buffer {
            byte_length: bytes.len() as u32,
            uri: Some(format!("data:application/octet-stream;base64,{encoded}")),
        }];
    }
    serde_json::to_vec_pretty(&root)
}
