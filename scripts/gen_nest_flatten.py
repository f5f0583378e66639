#!/usr/bin/env python3
# Expected values of tests/kernels/nest_flatten.cl, from a Python model of each kernel (an
# independent source: no oclhls code). Prints one list per test, in the file's order.
def fmt(xs): return ' '.join(str(x) for x in xs)
out = []
# A rect_scale
def rect(a, rows, cols, init):
    o = list(init)
    for r in range(rows):
        for c in range(cols):
            o[r*cols+c] = 2*a[r*cols+c] + r
    return o
A = list(range(12))
tA1 = rect(A, 3, 4, [9]*12)
tA2 = rect(A, 0, 4, [9]*12)
tA3 = rect(A, 3, 0, [9]*12)
# B tri_coalesce: rows i < n, inner j < i (row 0 empty)
def tri(n, size):
    o=[-1]*size; k=0
    for i in range(n):
        for j in range(i):
            o[k]=i*10+j; k+=1
    o[size-1]=k
    return o
tB = tri(6, 16)
# C nest3: s over i<a, j<b, k<c of (i*100+j*10+k)*w[k]; then i, j, k after
def nest3(a,b,c,w):
    s=0; i=j=k=0  # k, j initial values before loops are 7, 8 in kernel (assigned before)
    j=8; k=7
    i=0
    while i<a:
        j=0
        while j<b:
            k=0
            while k<c:
                s+=(i*100+j*10+k)*w[k]; k+=1
            j+=1
        i+=1
    return [s, i, j, k]
W=[3,1,4,1,5]
tC1=nest3(2,3,4,W); tC2=nest3(3,0,4,W); tC3=nest3(2,2,0,W); tC4=nest3(0,2,2,W)
# D break/continue
def bc(a, rows, cols):
    o=[0]*(rows*cols)
    for r in range(rows):
        for c in range(cols):
            v=a[r*cols+c]
            if v<0: break
            if v%2==0: continue
            o[r*cols+c]=v*3
    return o
D=[1,2,3,-4,5,7,9,11,-1,3,5,6,8,9,-2,1]
tD=bc(D,4,4)
# E ndrange
def nd(g, n):
    o=[0]*(g*2*n)
    for gid in range(g):
        for i in range(2):
            for j in range(n):
                o[gid*2*n+i*n+j]=gid+i*j
    return o
tE=nd(5,3)
# F upper triangle with j += 1 from j = i
def upper(n):
    o=[0]*(n*n)
    for i in range(n):
        for j in range(i, n):
            o[i*n+j]=i+j*j
    return o
tF=upper(5)
# G find first
def find(a, rows, cols, key):
    for i in range(rows):
        for j in range(cols):
            if a[i*cols+j]==key: return i*cols+j
    return -1
G=[5,3,8,8,1,9,2,7,8,4,6,0]
tG1=find(G,3,4,9); tG2=find(G,3,4,11); tG3=find(G,3,4,8)
print(tA1, tA2, tA3, tB, tC1, tC2, tC3, tC4, tD, tE, tF, tG1, tG2, tG3, sep='\n')
# H imperfect: pre s = r, post out[r] = s, total
def imperfect(a, rows, cols, size):
    o=[-1]*size; total=0
    for r in range(rows):
        s=r
        for c in range(cols):
            s+=a[r*cols+c]
        o[r]=s; total+=s
    o[rows]=total
    return o
H=list(range(1,13))
print(imperfect(H,3,4,5), imperfect(H,3,0,5), imperfect(H,0,4,5))
# I matmul 4x4
def mm(a,b,n):
    return [sum(a[i*n+k]*b[k*n+j] for k in range(n)) for i in range(n) for j in range(n)]
MA=[(3*x+1)%7-3 for x in range(16)]; MB=[(5*x+2)%9-4 for x in range(16)]
print(MA, MB, mm(MA,MB,4))
