//! The response buffer of a global read port: one per loop region (pipeline) with loads whose
//! data is used, in the kernel module (`rtl_templates::kernel::read_port`). It holds every
//! read the region can have outstanding: a read's data is used `latency` cycles after its
//! request, so each load of the region contributes `latency + 1` entries (its requests of the
//! iterations between issue and use, and the one being used). The scheduler's operator library
//! estimates the buffer's read delay from the same depth (a deeper FIFO reads later).

/// The depth of a response buffer for loads with these scheduled latencies (request to use,
/// in cycles): the sum of `latency + 1`, rounded up to a power of two, at least 2.
pub fn response_buffer_depth(latencies: impl IntoIterator<Item = u32>) -> u32 {
    let entries: u32 = latencies.into_iter().map(|l| l + 1).sum();
    entries.next_power_of_two().max(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depths_are_powers_of_two_holding_every_outstanding_read() {
        assert_eq!(response_buffer_depth([]), 2);
        assert_eq!(response_buffer_depth([0]), 2);
        assert_eq!(response_buffer_depth([2]), 4);
        assert_eq!(response_buffer_depth([3]), 4);
        assert_eq!(response_buffer_depth([3, 3]), 8);
        assert_eq!(response_buffer_depth([16, 16]), 64);
        assert_eq!(response_buffer_depth([31]), 32);
    }
}
