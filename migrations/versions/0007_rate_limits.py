"""The write limit's counts, shared by every server process on the database

Revision ID: 0007_rate_limits
Revises: 0006_groups
Create Date: 2026-12-02 00:10:00

"""
from alembic import op
import sqlalchemy as sa


revision = '0007_rate_limits'
down_revision = '0006_groups'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'rate_limits',
        sa.Column('key', sa.String(length=255), nullable=False),
        sa.Column('count', sa.Integer(), nullable=False),
        sa.Column('expires_at', sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint('key'),
    )
    op.create_index('ix_rate_limits_expires_at', 'rate_limits', ['expires_at'])


def downgrade():
    op.drop_index('ix_rate_limits_expires_at', table_name='rate_limits')
    op.drop_table('rate_limits')
