//! The one linear solve damped least squares needs: `(J·Jᵀ + λ²·I)·y = e`, a small symmetric positive
//! definite system (three rows per effector), by Cholesky factorisation in `f64`.

/// Solves `a·y = b` in place (`b` becomes `y`) for the symmetric positive definite `n×n` matrix `a`
/// (row-major; overwritten by its Cholesky factor). Returns `false` when `a` is not positive definite
/// (a zero or non-finite pivot), leaving `b` unspecified.
pub(super) fn solve_spd(a: &mut [f64], b: &mut [f64], n: usize) -> bool {
    debug_assert!(a.len() == n * n && b.len() == n);
    // a = L·Lᵀ, L stored in the lower triangle.
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        if d <= 0.0 || !d.is_finite() {
            return false;
        }
        let d = d.sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
    }
    // L·z = b, then Lᵀ·y = z.
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i * n + k] * b[k];
        }
        b[i] = s / a[i * n + i];
    }
    for i in (0..n).rev() {
        let mut s = b[i];
        for k in i + 1..n {
            s -= a[k * n + i] * b[k];
        }
        b[i] = s / a[i * n + i];
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_a_worked_3x3_system() {
        // a = [[4,2,0],[2,5,1],[0,1,3]], y = [1,-1,2] → b = a·y = [2,-1,5].
        let mut a = [4.0, 2.0, 0.0, 2.0, 5.0, 1.0, 0.0, 1.0, 3.0];
        let mut b = [2.0, -1.0, 5.0];
        assert!(solve_spd(&mut a, &mut b, 3));
        for (got, want) in b.iter().zip([1.0, -1.0, 2.0]) {
            assert!((got - want).abs() < 1e-12, "{b:?}");
        }
    }

    #[test]
    fn refuses_a_matrix_that_is_not_positive_definite() {
        let mut a = [1.0, 2.0, 2.0, 1.0];
        let mut b = [1.0, 1.0];
        assert!(!solve_spd(&mut a, &mut b, 2));
    }
}
